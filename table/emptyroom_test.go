package table

import (
	"context"
	"slices"
	"testing"
	"time"
)

// A waiting room its last player left, with nobody watching, closes at
// once: it stood in the lobby as "0/4 waiting" for minutes (issue 42 item
// 9). A player who only stepped away keeps the seat, and the room.
func TestAWaitingRoomItsLastPlayerLeftCloses(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{IdleClose: time.Hour})
	alice, _ := join(t, r, "alice")
	if err := r.StepAway(alice); err != nil {
		t.Fatal(err)
	}
	settle(t, r)
	if s := r.Summary(); s.Status != StatusWaiting {
		t.Fatalf("a room whose host stepped away: %s, want waiting", s.Status)
	}
	again, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Leave(again); err != nil {
		t.Fatal(err)
	}
	settle(t, r)
	if s := r.Summary(); s.Status != StatusWaiting {
		t.Fatalf("a room bob still sits at: %s, want waiting", s.Status)
	}
	if err := r.Leave(bob); err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatalf("the empty waiting room is still open: %+v", r.Summary())
	}
}

// After L the lobby no longer calls the table "your seat", and the
// player is not sat back down at it (issue 42 item 9).
func TestAGivenUpSeatIsNoLongerYours(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, BotDelay: time.Hour})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	if !slices.Contains(r.Summary().Players, "alice") {
		t.Fatalf("players %v before L", r.Summary().Players)
	}
	if err := r.Leave(alice); err != nil {
		t.Fatal(err)
	}
	settle(t, r)
	if p := r.Summary().Players; slices.Contains(p, "alice") || !slices.Contains(p, "bob") {
		t.Fatalf("players %v after alice gave her seat to a bot, want bob only", p)
	}
}
