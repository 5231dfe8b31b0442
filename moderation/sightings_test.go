package moderation_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// heldSightings is a store whose writes of sightings wait until the test
// lets them through.
type heldSightings struct {
	persistence.Sightings
	entered, release chan struct{}
}

func (h heldSightings) NoteSightings(batch []persistence.Sighting) error {
	h.entered <- struct{}{}
	<-h.release
	return h.Sightings.NoteSightings(batch)
}

// A sighting on its way to the store is read all the while: out of the
// queue and not yet in the store, it was read as nothing, and an admin's
// invites named a key by its fingerprint (TestInvitesAreListedAndRevoked,
// under load).
func TestASightingBeingWrittenIsRead(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	held := heldSightings{Sightings: st, entered: make(chan struct{}), release: make(chan struct{})}
	s := moderation.New(moderation.Options{Store: st, Sightings: held, Clock: clocktest.New()})
	bert := moderation.Person{ID: "SHA256:bert", Name: "bert", Addr: "192.0.2.8"}
	s.Saw(bert, "")
	flushed := make(chan struct{})
	go func() { s.Flush(); close(flushed) }()
	<-held.entered // the batch left the queue; the store has nothing yet

	check := func(when string) {
		t.Helper()
		if sg, ok := s.Sighting(bert.ID); !ok || len(sg.Names) != 1 || sg.Names[0].Name != "bert" || sg.LastAddr() != bert.Addr {
			t.Errorf("%s: Sighting = %+v, %v; want bert from %s", when, sg, ok, bert.Addr)
		}
		if ids := s.SeenAs("Bert"); !slices.Equal(ids, []string{bert.ID}) {
			t.Errorf("%s: SeenAs(Bert) = %q; want %q", when, ids, bert.ID)
		}
	}
	check("while it is written")
	close(held.release)
	<-flushed
	check("once written")
}
