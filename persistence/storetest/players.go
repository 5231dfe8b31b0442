package storetest

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

func testPlayerRoundTripAndUpdate(t *testing.T, open Opener) {
	s := open(t, tickClock())
	const fp = "SHA256:abcdef"
	if _, err := s.Player(fp); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("unknown player: %v", err)
	}
	seen := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	p, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error {
		p.Name = "Zoë Łukasiewicz"
		p.LastSeen = seen
		l := p.Stat("werewolf", "", 12)
		l.Played, l.Won = 1, 1
		p.Fingerprint = "SHA256:forged" // ignored
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.Fingerprint != fp || p.FirstSeen.IsZero() {
		t.Fatalf("UpdatePlayer returned %+v", p)
	}
	got, err := s.Player(fp)
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Fatalf("Player = %+v, %v; want %+v", got, err, p)
	}

	boom := errors.New("boom")
	if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Name = "lost"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if got, _ := s.Player(fp); got.Name != "Zoë Łukasiewicz" {
		t.Fatalf("a failed update was stored: %q", got.Name)
	}
	if p, err := s.Seen(fp, "zoe"); err != nil || p.Name != "Zoë Łukasiewicz" || !p.LastSeen.After(seen) {
		t.Fatalf("Seen on a named profile = %+v, %v; want the chosen name kept, LastSeen now", p, err)
	}
	if p, err := s.Seen("SHA256:new", "bob"); err != nil || p.Name != "bob" || p.LastSeen.IsZero() || p.FirstSeen.IsZero() {
		t.Fatalf("Seen on a new profile = %+v, %v; want name bob, stamps set", p, err)
	}
	if _, err := s.UpdatePlayer("", func(*persistence.Profile) error { return nil }); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("empty fingerprint: %v", err)
	}
}

// Left stamps a stored profile's LastSeen (the end of a session), and
// makes no profile for a key that has none.
func testLeftStampsLastSeen(t *testing.T, open Opener) {
	s := open(t, tickClock())
	if err := s.Left("SHA256:nobody"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("Left of no profile: %v", err)
	}
	if _, err := s.Player("SHA256:nobody"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("Left made a profile: %v", err)
	}
	in, err := s.Seen("SHA256:ada", "ada")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Left("SHA256:ada"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Player("SHA256:ada")
	if err != nil || !p.LastSeen.After(in.LastSeen) || p.Name != "ada" || !p.FirstSeen.Equal(in.FirstSeen) {
		t.Fatalf("after Left: %+v, %v; logged in at %v", p, err, in.LastSeen)
	}
	if err := s.Left(""); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("Left of an empty fingerprint: %v", err)
	}
}

func testEachPlayerVisitsEveryProfile(t *testing.T, open Opener) {
	s := open(t, tickClock())
	for _, fp := range []string{"SHA256:b", "SHA256:a", "SHA256:c"} {
		if _, err := s.Seen(fp, "n"+fp[7:]); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := s.EachPlayer(func(p persistence.Profile) error { got = append(got, p.Fingerprint+"="+p.Name); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "SHA256:a=na,SHA256:b=nb,SHA256:c=nc" {
		t.Fatalf("EachPlayer visited %v", got)
	}
	stop := errors.New("stop")
	n := 0
	if err := s.EachPlayer(func(persistence.Profile) error { n++; return stop }); err != stop || n != 1 {
		t.Fatalf("EachPlayer did not stop at the first error: %v after %d", err, n)
	}
}

func testCampaignsMembershipAndUpdate(t *testing.T, open Opener) {
	s := open(t, tickClock())
	c, err := s.CreateCampaign(persistence.Campaign{Name: "Somme", Members: []string{"SHA256:ann", "SHA256:bob"}, Trials: 25})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == "" || c.Created.IsZero() {
		t.Fatalf("CreateCampaign returned %+v", c)
	}
	if got, err := s.Campaign(c.ID); err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("persistence.Campaign = %+v, %v; want %+v", got, err, c)
	}
	if _, err := s.CreateCampaign(persistence.Campaign{ID: c.ID}); !errors.Is(err, persistence.ErrExists) {
		t.Fatalf("duplicate ID: %v", err)
	}
	if _, err := s.CreateCampaign(persistence.Campaign{ID: "dup", Members: []string{"SHA256:x", "SHA256:x"}}); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("member twice: %v", err)
	}
	other, _ := s.CreateCampaign(persistence.Campaign{ID: "verdun", Name: "Verdun", Members: []string{"SHA256:bob"}})

	list := func(fp string) []string {
		cs, err := s.Campaigns(fp)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	if got := list("SHA256:bob"); !slices.Equal(got, []string{c.ID, other.ID}) {
		t.Fatalf("bob's campaigns %v", got)
	}
	if got := list("SHA256:nobody"); len(got) != 0 {
		t.Fatalf("nobody's campaigns %v", got)
	}

	// Swap ann for cid; profiles follow in the same transaction.
	up, err := s.UpdateCampaign(c.ID, func(c *persistence.Campaign) error {
		c.Members = []string{"SHA256:bob", "SHA256:cid"}
		c.Name = "Somme II"
		c.ID = "renamed" // ignored
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if up.ID != c.ID || up.Name != "Somme II" {
		t.Fatalf("UpdateCampaign returned %+v", up)
	}
	if got := list("SHA256:ann"); len(got) != 0 {
		t.Fatalf("ann still lists %v", got)
	}
	if got := list("SHA256:cid"); !slices.Equal(got, []string{c.ID}) {
		t.Fatalf("cid lists %v", got)
	}
	boom := errors.New("boom")
	if _, err := s.UpdateCampaign(c.ID, func(c *persistence.Campaign) error { c.Members = nil; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if got := list("SHA256:cid"); len(got) != 1 {
		t.Fatal("a failed campaign update changed memberships")
	}
	if _, err := s.UpdateCampaign("nope", func(*persistence.Campaign) error { return nil }); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("unknown campaign: %v", err)
	}
}

func testRecordCampaignResult(t *testing.T, open Opener) {
	s := open(t, tickClock())
	members := []string{"SHA256:ann", "SHA256:bob", "SHA256:cid", "SHA256:dee"}
	c, err := s.CreateCampaign(persistence.Campaign{ID: "somme", Members: members, Trials: 26})
	if err != nil {
		t.Fatal(err)
	}
	// A loss first: not veteran.
	if _, err := s.RecordCampaignResult(c.ID, "room1", 26, members[:3], false, 27, false); err != nil {
		t.Fatal(err)
	}
	// The winning mission, played by three of the four members.
	played := []string{"SHA256:ann", "SHA256:bob", "SHA256:cid"}
	got, err := s.RecordCampaignResult(c.ID, "room2", 27, played, true, 30, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room2", 27, played, true, 30, true); !errors.Is(err, persistence.ErrExists) {
		t.Fatalf("recording a mission twice: %v; want ErrExists", err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "", 27, played, true, 30, true); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("no room ID: %v; want ErrInvalid", err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room9", 27, []string{""}, true, 30, true); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("empty fingerprint: %v; want ErrInvalid", err)
	}
	if _, err := s.RecordCampaignResult("nope", "room3", 27, played, true, 30, true); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("unknown campaign: %v", err)
	}
	bob, _ := s.Player("SHA256:bob")
	since := bob.VeteranSince
	// A mission opened before the campaign moved on counts for nothing:
	// neither an older mission's loss nor a second table's win.
	if _, err := s.RecordCampaignResult(c.ID, "room0", 26, played, false, 27, false); !errors.Is(err, persistence.ErrStale) {
		t.Fatalf("a result for a mission already played: %v; want ErrStale", err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room3", 30, played[:1], true, 30, true); !errors.Is(err, persistence.ErrStale) {
		t.Fatalf("a result after the campaign was won: %v; want ErrStale", err)
	}
	c, err = s.Campaign("somme")
	if err != nil {
		t.Fatal(err)
	}
	if c.Trials != 30 || c.Wins != 1 || c.Losses != 1 || !c.Veteran || len(c.History) != 2 {
		t.Fatalf("campaign after reopen %+v", c)
	}
	m := c.History[1]
	if m.RoomID != "room2" || !m.Won || m.Trials != 30 || !slices.Equal(m.Players, played) || !m.When.Equal(got.History[1].When) {
		t.Fatalf("mission record %+v", m)
	}
	for _, fp := range members {
		p, err := s.Player(fp)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Contains(played, fp)
		if p.Veteran != want {
			t.Errorf("%s veteran = %v; want %v", fp, p.Veteran, want)
		}
		if want && p.VeteranSince.IsZero() {
			t.Errorf("%s has no VeteranSince", fp)
		}
		if !want && !p.VeteranSince.IsZero() {
			t.Errorf("%s has VeteranSince but is no veteran", fp)
		}
	}
	if ann, _ := s.Player("SHA256:ann"); !ann.VeteranSince.Equal(since) {
		t.Errorf("ann's VeteranSince moved from %v to %v", since, ann.VeteranSince)
	}
}

// Writers on several goroutines (or nodes) update one profile and one
// campaign at once; read-modify-write loses no update.
func testConcurrentUpdatesLoseNothing(t *testing.T, open Opener) {
	s := open(t, tickClock())
	const fp = "SHA256:busy"
	c, err := s.CreateCampaign(persistence.Campaign{ID: "busy", Members: []string{fp}})
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for range writers {
		wg.Go(func() {
			for range each {
				if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error {
					p.Stat("grizzled", "", 2).Played++
					return nil
				}); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range each {
				if _, err := s.UpdateCampaign(c.ID, func(c *persistence.Campaign) error {
					c.Wins++
					return nil
				}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	p, err := s.Player(fp)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Stat("grizzled", "", 2).Played; got != writers*each {
		t.Errorf("profile counted %d updates; want %d", got, writers*each)
	}
	if !slices.Equal(p.Campaigns, []string{"busy"}) {
		t.Errorf("profile's campaigns %v; want [busy]", p.Campaigns)
	}
	c, err = s.Campaign(c.ID)
	if err != nil || c.Wins != writers*each {
		t.Errorf("campaign counted %d updates, %v; want %d", c.Wins, err, writers*each)
	}
}

// The last alive mark is kept to the nanosecond.
func testAliveMarks(t *testing.T, open Opener) {
	s := open(t, tickClock())
	if got, err := s.LastAlive(); err != nil || !got.IsZero() {
		t.Fatalf("LastAlive of a new store = %v, %v; want the zero time", got, err)
	}
	for _, mark := range []time.Time{
		time.Date(2026, 11, 24, 10, 0, 0, 123456789, time.UTC),
		time.Date(2026, 11, 24, 10, 0, 5, 1, time.UTC),
	} {
		if err := s.MarkAlive(mark); err != nil {
			t.Fatal(err)
		}
		if got, err := s.LastAlive(); err != nil || !got.Equal(mark) {
			t.Fatalf("LastAlive = %v, %v; want %v", got, err, mark)
		}
	}
}
