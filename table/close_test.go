package table

import (
	"context"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// closedSoon waits, in real time but bounded, for r's actor to stop.
func closedSoon(t *testing.T, r *Room, what string) {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: the table is still open", what)
	}
}

// stillOpen checks r runs: its actor answers a call.
func stillOpen(t *testing.T, r *Room, what string) {
	t.Helper()
	if err := r.call(context.Background(), command{kind: cmdRefresh}); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// forgotten checks the closed room left no record and no log to hold its code.
func forgotten(t *testing.T, j *MemJournal, code string) {
	t.Helper()
	if rec, kept := j.Room(code); kept || len(j.Log(code)) > 0 {
		t.Fatalf("the closed room's record %+v is kept, holding its code", rec)
	}
}

// A guided mission is its newcomer's alone: when they go, it closes at
// once (`learn` then `leave`, 325 times in 10 s, left 325 tables open).
func TestAGuidedMissionClosesWhenItsPlayerGoes(t *testing.T) {
	for _, how := range []string{"detach", "leave"} {
		t.Run(how, func(t *testing.T) {
			j := NewMemJournal()
			_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Options: Options{Practice: true, BotLevel: "easy"}, Journal: j, Bots: raceBots{}, FillBots: 1})
			alice, _ := join(t, r, "alice")
			if err := r.Start(context.Background(), alice); err != nil {
				t.Fatal(err)
			}
			if how == "detach" {
				r.Detach(alice)
			} else {
				r.Leave(alice)
			}
			closedSoon(t, r, "the newcomer went")
			forgotten(t, j, r.Code())
		})
	}
}

// A game in progress nobody attends closes once nobody has come back for
// DesertedAfter (start, leave, again and again, left started tables that
// never closed); a player back in time keeps it.
func TestAGameNobodyAttendsClosesAfterItsGrace(t *testing.T) {
	clk, j := clocktest.New(), NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk, Journal: j, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, FillBots: 1,
		DesertedAfter: 30 * time.Minute, IdleClose: 15 * time.Minute})
	alice, _ := join(t, r, "alice")
	r.Start(context.Background(), alice)
	waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	r.Detach(alice)
	clk.WaitTimers(t, 1)
	clk.Advance(29 * time.Minute)
	stillOpen(t, r, "29 minutes after its player left")
	clk.Advance(time.Minute)
	closedSoon(t, r, "30 minutes after its player left")
	forgotten(t, j, r.Code())
}

// A table restored after a restart closes as one made after it does: a
// waiting table nobody comes back to after IdleClose, a game in progress
// after DesertedAfter. (Restored waiting tables never closed.)
func TestRestoredTablesCloseLikeNewOnes(t *testing.T) {
	for _, c := range []struct {
		name  string
		start bool
		after time.Duration
	}{{"waiting", false, 15 * time.Minute}, {"playing", true, 30 * time.Minute}} {
		t.Run(c.name, func(t *testing.T) {
			j := NewMemJournal()
			_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Journal: j})
			alice, _ := join(t, r, "alice")
			join(t, r, "bob")
			if c.start {
				r.Start(context.Background(), alice)
				waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
			}
			rec, _ := j.Room(r.Code())
			clk := clocktest.New()
			r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j, Clock: clk,
				IdleClose: 15 * time.Minute, DesertedAfter: 30 * time.Minute}, rec, j.Log(r.Code()))
			if err != nil {
				t.Fatal(err)
			}
			clk.WaitTimers(t, 1)
			clk.Advance(c.after - time.Second)
			stillOpen(t, r2, "just before its grace")
			clk.Advance(time.Second)
			closedSoon(t, r2, "restored, nobody back")
			forgotten(t, j, r.Code())
		})
	}
}
