package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

func sightings(t *testing.T, open Opener) persistence.Sightings {
	t.Helper()
	s, ok := open(t, tickClock()).(persistence.Sightings)
	if !ok {
		t.Fatal("the store keeps no sightings (persistence.Sightings)")
	}
	return s
}

var seenDay = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

func seen(id, name, addr string, at time.Time) persistence.Sighting {
	sg := persistence.Sighting{ID: id, Last: at}
	if name != "" {
		sg.Names = []persistence.SeenName{{Name: name, Fold: "f-" + name}}
	}
	if addr != "" {
		sg.Addrs = []persistence.SeenAddr{{Addr: addr}}
	}
	return sg
}

// A record gathers every name and address an identity was seen with,
// each with when it was first and last seen; the name index finds the
// identities seen under a name, the latest last.
func testSightingsMergeAndIndex(t *testing.T, open Opener) {
	s := sightings(t, open)
	if _, err := s.Sighting("SHA256:anna"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("an identity never seen: %v", err)
	}
	if ids, err := s.SightingsNamed("f-anna"); err != nil || len(ids) != 0 {
		t.Fatalf("a name never seen: %v, %v", ids, err)
	}
	guest := seen("guest:7", "gus", "192.0.2.7", seenDay)
	guest.Guest = true
	anna := seen("SHA256:anna", "anna", "198.51.100.1", seenDay)
	anna.Key = "ssh-ed25519 AAAAanna"
	if err := s.NoteSightings([]persistence.Sighting{anna, guest}); err != nil {
		t.Fatal(err)
	}
	later := seenDay.Add(time.Hour)
	if err := s.NoteSightings([]persistence.Sighting{
		seen("SHA256:anna", "annie", "2001:db8::1", later),
		seen("SHA256:anna", "anna", "198.51.100.1", later.Add(time.Minute)),
		seen("SHA256:bert", "anna", "", later.Add(2*time.Minute)), // the name, held by another since
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Sighting("SHA256:anna")
	if err != nil {
		t.Fatal(err)
	}
	want := persistence.Sighting{ID: "SHA256:anna", Key: "ssh-ed25519 AAAAanna", First: seenDay, Last: later.Add(time.Minute),
		Names: []persistence.SeenName{{Name: "annie", Fold: "f-annie", First: later, Last: later}, {Name: "anna", Fold: "f-anna", First: seenDay, Last: later.Add(time.Minute)}},
		Addrs: []persistence.SeenAddr{{Addr: "2001:db8::1", First: later, Last: later}, {Addr: "198.51.100.1", First: seenDay, Last: later.Add(time.Minute)}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("anna's record:\n got %+v\nwant %+v", got, want)
	}
	if got.LastAddr() != "198.51.100.1" {
		t.Errorf("anna's last address %q", got.LastAddr())
	}
	if g, err := s.Sighting("guest:7"); err != nil || !g.Guest || g.LastAddr() != "192.0.2.7" {
		t.Errorf("the guest's record: %+v, %v", g, err)
	}
	if ids, err := s.SightingsNamed("f-anna"); err != nil || !reflect.DeepEqual(ids, []string{"SHA256:anna", "SHA256:bert"}) {
		t.Errorf("seen as anna: %v, %v", ids, err)
	}

	// Past MaxSeenNames names the oldest go, from the index too.
	var batch []persistence.Sighting
	for i := range persistence.MaxSeenNames {
		batch = append(batch, seen("SHA256:anna", fmt.Sprintf("n%d", i), "", later.Add(time.Duration(10+i)*time.Minute)))
	}
	if err := s.NoteSightings(batch); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Sighting("SHA256:anna")
	if len(got.Names) != persistence.MaxSeenNames || got.Names[0].Name != "n0" {
		t.Errorf("after %d more names, anna's are %+v", persistence.MaxSeenNames, got.Names)
	}
	if ids, _ := s.SightingsNamed("f-anna"); !reflect.DeepEqual(ids, []string{"SHA256:bert"}) {
		t.Errorf("a name anna's record dropped still names her: %v", ids)
	}
	if err := s.NoteSightings([]persistence.Sighting{{ID: ""}}); !errors.Is(err, persistence.ErrInvalid) {
		t.Errorf("a sighting without an identity: %v", err)
	}
}

// Pruning removes the records last seen before a moment, then, past a
// number of them, those seen longest ago, and their index entries.
func testSightingsPrune(t *testing.T, open Opener) {
	s := sightings(t, open)
	var batch []persistence.Sighting
	for i := range 5 {
		batch = append(batch, seen(fmt.Sprintf("SHA256:k%d", i), fmt.Sprintf("p%d", i), "", seenDay.Add(time.Duration(i)*time.Hour)))
	}
	if err := s.NoteSightings(batch); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneSightings(seenDay.Add(time.Hour), 10); err != nil || n != 1 {
		t.Fatalf("pruning before hour 1 removed %d, %v; want 1", n, err)
	}
	if n, err := s.PruneSightings(seenDay, 2); err != nil || n != 2 {
		t.Fatalf("pruning to 2 removed %d, %v; want 2", n, err)
	}
	for i, kept := range []bool{false, false, false, true, true} {
		_, err := s.Sighting(fmt.Sprintf("SHA256:k%d", i))
		if kept != (err == nil) {
			t.Errorf("k%d kept %v after pruning: %v", i, !kept, err)
		}
		ids, _ := s.SightingsNamed(fmt.Sprintf("f-p%d", i))
		if kept != (len(ids) == 1) {
			t.Errorf("p%d's index after pruning: %v", i, ids)
		}
	}
}
