package tui

import (
	"slices"
	"testing"
)

// enabledKeys are the help texts of the table's enabled session keys.
func enabledKeys(s *session) []string {
	var out []string
	for _, b := range s.m.at.global(s.m, nil) {
		if b.Enabled() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return out
}

// A watcher in a waiting room is offered no seat keys: Q does not keep a
// seat and there is none to give up (issue 30 item 8). A seated player
// still is.
func TestAWatcherIsOfferedNoSeatKeys(t *testing.T) {
	a := testApp(t)
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n", "enter")
	alice.pump(`alice \(you\)`)
	bob := newSession(t, a, "fp-bob", "bob")
	bob.keys("w")
	bob.pump(`alice`)
	if bob.m.at == nil || bob.m.at.upd.Seat >= 0 {
		t.Fatalf("bob is not watching: %+v", bob.m.at)
	}
	seatKeys := []string{"Q lobby (seat kept)", "L give up seat"}
	for _, k := range seatKeys {
		if !slices.Contains(enabledKeys(alice), k) {
			t.Errorf("alice, seated, is not offered %q: %v", k, enabledKeys(alice))
		}
		if slices.Contains(enabledKeys(bob), k) {
			t.Errorf("bob, watching, is offered %q: %v", k, enabledKeys(bob))
		}
	}
	if !slices.Contains(enabledKeys(bob), "Q lobby") {
		t.Errorf("bob is not told Q goes to the lobby: %v", enabledKeys(bob))
	}
}
