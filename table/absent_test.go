package table

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
)

// A table without stand-ins keeps an absent player's seat for them, and
// says so.
func TestNoTakeoverKeepsTheSeatWaiting(t *testing.T) {
	clk := clocktest.New()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk, Bots: raceBots{}, Options: Options{BotLevel: "easy", NoTakeover: true},
		TakeoverAfter: 2 * time.Minute})
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
	settle(t, r)
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
			clk, j := clocktest.New(), NewMemJournal()
			_, r := newTestRoom(t, c.g, RoomConfig{Seats: 2, Clock: clk, Journal: j, Options: Options{AbandonAfter: 10 * time.Minute}})
			alice, _ := join(t, r, "alice")
			bob, _ := join(t, r, "bob")
			r.Start(context.Background(), alice)
			waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
			r.Detach(alice)
			r.Detach(bob)
			clk.WaitTimers(t, 1)
			clk.Advance(9 * time.Minute)
			bob2, _ := join(t, r, "bob") // back in time: the count stops
			waitFor(t, bob2, "bob back", func(u Update) bool { return u.Started })
			r.Detach(bob2)
			clk.WaitTimers(t, 1)
			clk.Advance(9 * time.Minute)
			settle(t, r)
			if s := r.Summary().Status; s != StatusPlaying {
				t.Fatalf("status %s 9 minutes after the last player left", s)
			}
			clk.Advance(time.Minute)
			clocktest.CheckFor(t, 5*time.Second, 5*time.Millisecond, func() error {
				if s := r.Summary().Status; s == StatusPlaying {
					return fmt.Errorf("status %s 10 minutes after the last player left", s)
				}
				return nil
			})
			rec, _ := j.Room(r.Code())
			if c.rule {
				if rec.Status != StatusOver || rec.Result == nil || len(j.Log(r.Code())) != 1 {
					t.Fatalf("record %+v, log %d: want over by the game's rule", rec, len(j.Log(r.Code())))
				}
			} else if _, kept := j.Room(r.Code()); kept || len(j.Log(r.Code())) != 0 {
				// Closed unfinished: nothing to replay, and a record kept
				// would hold the table's code for ever.
				t.Fatalf("record %+v kept: want the unfinished game forgotten", rec)
			}
		})
	}
}

// A player who gives their seat to a bot (L) gives it for the rest of the
// game: the bot plays even with nobody left at the table to watch, and
// after a restart too. (A seat that only lost its player waits for them.)
func TestASeatGivenUpIsPlayedToTheEnd(t *testing.T) {
	waitOver := func(j *MemJournal, code string) RoomRecord {
		t.Helper()
		var rec RoomRecord
		clocktest.CheckFor(t, 5*time.Second, 5*time.Millisecond, func() error {
			if rec, _ = j.Room(code); rec.Status != StatusOver {
				return fmt.Errorf("the game did not end without its player: %+v", rec)
			}
			return nil
		})
		return rec
	}
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, Journal: j})
	alice, _ := join(t, r, "alice")
	r.Start(context.Background(), alice) // the empty seat gets a bot
	waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	started, _ := j.Room(r.Code())
	log := j.Log(r.Code())[:started.Seq]

	r.Leave(alice)
	if rec := waitOver(j, r.Code()); !rec.Seats[0].Left {
		t.Fatal("the record does not say alice gave up her seat")
	}

	// The server stopped just after alice left, before any bot moved.
	started.Seats[0].Left = true
	j2 := NewMemJournal()
	for i, e := range log {
		j2.Append(started.Code, uint64(i+1), e)
	}
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j2, Bots: raceBots{}}, started, log)
	if err != nil {
		t.Fatal(err)
	}
	waitOver(j2, r2.Code())
}

// A seat whose player is away is given up for them (a ban): a bot plays it
// in a game, and the game goes on; a waiting room frees it.
func TestGiveUpSeatOfAnAbsentPlayer(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Bots: raceBots{}, Options: Options{BotLevel: "easy", NoTakeover: true}})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.GiveUpSeat("alice") // her session is at the table: hers to give up
	r.Detach(alice)
	waitFor(t, bob, "alice's absence", func(u Update) bool { return lastWith(u, "alice lost") != "" })
	if r.Summary().Seats[0].Bot != "" {
		t.Fatal("a bot took a seat whose player had a session at the table")
	}
	r.GiveUpSeat("alice")
	u := waitFor(t, bob, "a bot in alice's seat", func(u Update) bool { return u.Seats[0].Bot == StandIn })
	if lastWith(u, "alice has left") == "" {
		t.Errorf("the table was not told alice left:\n%v", u.Log)
	}

	_, w := newTestRoom(t, race{}, RoomConfig{Seats: 3})
	host, _ := join(t, w, "host")
	carl, _ := join(t, w, "carl")
	w.Detach(carl)
	w.GiveUpSeat("carl")
	waitFor(t, host, "carl's seat freed", func(u Update) bool { return u.Seats[1].Name == "" })
}

// A banned player's seat is given up as their last session leaves it:
// the session a ban ended while its join was under way took the seat
// after the ban looked for it, and must not keep it.
func TestBannedPlayersSeatIsGivenUpWhenTheirSessionGoes(t *testing.T) {
	banned := map[string]bool{}
	var mu sync.Mutex
	isBanned := func(id string) bool { mu.Lock(); defer mu.Unlock(); return banned[id] }
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Bots: raceBots{}, Options: Options{BotLevel: "easy", NoTakeover: true}, Banned: isBanned})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	mu.Lock()
	banned["alice"] = true
	mu.Unlock()
	r.Detach(alice)
	u := waitFor(t, bob, "a bot in banned alice's seat", func(u Update) bool { return u.Seats[0].Bot == StandIn })
	if lastWith(u, "alice has left") == "" {
		t.Errorf("the table was not told alice left:\n%v", u.Log)
	}

	_, w := newTestRoom(t, race{}, RoomConfig{Seats: 3, Banned: isBanned})
	host, _ := join(t, w, "host")
	carl, _ := join(t, w, "carl")
	dan, _ := join(t, w, "dan")
	mu.Lock()
	banned["carl"] = true
	mu.Unlock()
	w.Detach(carl)
	w.Detach(dan) // not banned: keeps his seat while away
	u = waitFor(t, host, "banned carl's seat freed", func(u Update) bool { return u.Seats[1].Name == "" })
	if u.Seats[2].Name == "" {
		t.Error("a player who is not banned lost his seat by going away")
	}
}
