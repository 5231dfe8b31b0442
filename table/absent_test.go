package table

import (
	"context"
	"strings"
	"testing"
	"time"

	"bivouac/game"
)

// A table without stand-ins keeps an absent player's seat for them, and
// says so.
func TestNoTakeoverKeepsTheSeatWaiting(t *testing.T) {
	clk := newFakeClock()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk, Bots: raceBots{}, BotLevel: "easy",
		TakeoverAfter: 2 * time.Minute, NoTakeover: true})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.Detach(alice)
	u := waitFor(t, bob, "alice's absence", func(u Update) bool { return lastWith(u, "alice lost") != "" })
	if got := lastWith(u, "alice lost"); !strings.Contains(got, "The table waits for them.") {
		t.Errorf("told %q", got)
	}
	clk.Advance(time.Hour)
	time.Sleep(20 * time.Millisecond)
	if r.Summary().Seats[0].Bot != "" {
		t.Fatal("a bot took the seat at a table without stand-ins")
	}
	if rec := r.record0(); !rec.NoTakeover {
		t.Fatal("the choice is not in the room's record (it must survive a restart)")
	}
}

// endsRace is race with the Werewolves rule for a deserted game.
type endsRace struct{ race }

func (endsRace) AbandonAction(game.State) game.Action { return "abandon" }

// Once every human player has been away AbandonAfter, the game ends with
// no winner: through the game's own rule when it has one (logged, with a
// result), else the table closes unfinished. A player back in time stops
// the count.
func TestADesertedGameEnds(t *testing.T) {
	for _, c := range []struct {
		name string
		g    game.Game
		rule bool
	}{{"without a rule", race{}, false}, {"with the game's rule", endsRace{}, true}} {
		t.Run(c.name, func(t *testing.T) {
			clk, j := newFakeClock(), NewMemJournal()
			_, r := newTestRoom(t, c.g, RoomConfig{Seats: 2, Clock: clk, Journal: j, AbandonAfter: 10 * time.Minute})
			alice, _ := join(t, r, "alice")
			bob, _ := join(t, r, "bob")
			r.Start(context.Background(), alice)
			waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
			r.Detach(alice)
			r.Detach(bob)
			clk.waitAlarm(t)
			clk.Advance(9 * time.Minute)
			bob2, _ := join(t, r, "bob") // back in time: the count stops
			waitFor(t, bob2, "bob back", func(u Update) bool { return u.Started })
			r.Detach(bob2)
			clk.waitAlarm(t)
			clk.Advance(9 * time.Minute)
			time.Sleep(20 * time.Millisecond)
			if s := r.Summary().Status; s != StatusPlaying {
				t.Fatalf("status %s 9 minutes after the last player left", s)
			}
			clk.Advance(time.Minute)
			deadline := time.Now().Add(5 * time.Second)
			for r.Summary().Status == StatusPlaying && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			rec, _ := j.Room(r.Code())
			if c.rule {
				if rec.Status != StatusOver || rec.Result == nil || len(j.Log(r.Code())) != 1 {
					t.Fatalf("record %+v, log %d: want over by the game's rule", rec, len(j.Log(r.Code())))
				}
			} else if rec.Status != StatusClosed || rec.Result != nil {
				t.Fatalf("record status %s result %v: want closed unfinished", rec.Status, rec.Result)
			}
		})
	}
}
