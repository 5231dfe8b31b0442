package table

import (
	"context"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// Giving one's seat to a bot (L) is final for the rest of the game: coming
// back to the table, by choosing it or to watch, does not silently take the
// seat back; the player watches and is told why (issue 30 item 4).
func TestAGivenSeatIsNotTakenBack(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 3, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, Journal: j})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	r.Leave(alice)
	for _, watch := range []bool{false, true} {
		box := NewMailbox()
		seat, err := r.Join(context.Background(), Player{ID: "alice", Name: "alice"}, box, watch)
		if err != nil || seat != game.Spectator {
			t.Fatalf("watch=%v: alice came back to seat %d, %v", watch, seat, err)
		}
		u := waitFor(t, box, "a notice", func(u Update) bool { return !u.Notice.IsZero() })
		if u.Notice.Key != "table.seat_given" || u.Seat != game.Spectator {
			t.Fatalf("watch=%v: alice sees seat %d and %v", watch, u.Seat, u.Notice)
		}
		if rec, _ := j.Room(r.Code()); !rec.Seats[0].Left {
			t.Fatalf("watch=%v: the seat is no longer given: %+v", watch, rec.Seats[0])
		}
		r.Leave(box)
	}
}
