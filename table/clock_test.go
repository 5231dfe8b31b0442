package table

import (
	"context"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// stillAt reads box for a moment (real time) and fails if the table moved
// past seq: a timer went off too early.
func stillAt(t *testing.T, box *Mailbox, seq int, what string) {
	t.Helper()
	quiet, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	for {
		u, more := box.Next(quiet)
		if !more {
			return
		}
		if u.Seq != seq {
			t.Fatalf("%s (seq %d)", what, u.Seq)
		}
	}
}

// The game's timers run on the room's clock: each expiry is one System
// action, and nothing happens until the clock gets there.
func TestRoomTimersRunOnTheRoomsClock(t *testing.T) {
	clk := clocktest.New()
	_, r := newTestRoom(t, race{turn: time.Minute}, RoomConfig{Seats: 2, Clock: clk})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	r.Start(context.Background(), alice)
	waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	clk.WaitTimers(t, 1)
	clk.Advance(59 * time.Second)
	stillAt(t, alice, 0, "a timer went off a second early")
	var u Update
	for i := 1; i <= 10 && !u.Over; i++ {
		clk.Advance(time.Minute)
		u = waitFor(t, alice, "the next expiry", func(u Update) bool { return u.Seq == i })
		if !u.Over {
			clk.WaitTimers(t, 1)
		}
	}
	if !u.Over || u.View.(raceView).Counter != 10 || u.Seq != 10 {
		t.Fatalf("counter %d seq %d", u.View.(raceView).Counter, u.Seq)
	}
}

// An absent player's seat goes to a bot after TakeoverAfter on the room's
// clock, not before.
func TestRoomTakeoverWaitsForTheClock(t *testing.T) {
	clk := clocktest.New()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk, Bots: raceBots{}, Options: Options{BotLevel: "easy"},
		TakeoverAfter: 2 * time.Minute})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.Detach(alice)
	clk.WaitTimers(t, 1)
	clk.Advance(time.Minute)
	settle(t, r)
	if r.Summary().Seats[0].Bot != "" {
		t.Fatal("a bot took the seat before the takeover time")
	}
	clk.Advance(time.Minute)
	waitFor(t, bob, "the bot takes alice's seat", func(u Update) bool {
		return len(u.Seats) > 0 && u.Seats[0].Bot != ""
	})
}

// A timed step saved 12 s before its end resumes after a restart with
// those 12 s (plus the grace), however long the server was down, and a
// step that had run out resumes with the grace alone.
func TestTimedStepResumesWithTheTimeItHadLeft(t *testing.T) {
	for _, c := range []struct {
		name    string
		elapsed time.Duration // of the minute, when the server stopped
		left    time.Duration
	}{{"12 s left", 48 * time.Second, 12 * time.Second}, {"overdue", 70 * time.Second, 0}} {
		t.Run(c.name, func(t *testing.T) {
			clk, j := clocktest.New(), NewMemJournal()
			_, r := newTestRoom(t, race{turn: time.Minute}, RoomConfig{Seats: 2, Clock: clk, Journal: j})
			alice, _ := join(t, r, "alice")
			join(t, r, "bob")
			r.Start(context.Background(), alice)
			waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
			clk.WaitTimers(t, 1)
			rec, _ := j.Room(r.Code())
			if rec.Timer == nil || !rec.Timer.Deadline.Equal(clk.Now().Add(time.Minute)) {
				t.Fatalf("saved timer %+v, want the step's deadline a minute from now", rec.Timer)
			}
			stopped := clk.Now().Add(c.elapsed)

			clk2 := clocktest.NewAt(stopped.Add(10 * time.Minute)) // a long outage
			r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{turn: time.Minute}, Journal: j, Clock: clk2, Stopped: stopped}, rec, j.Log(r.Code()))
			if err != nil {
				t.Fatal(err)
			}
			a2, _ := join(t, r2, "alice")
			u := waitFor(t, a2, "restored", func(u Update) bool { return u.Started })
			clk2.WaitTimers(t, 1)
			if want := int((c.left + RestartGrace).Seconds()); u.Deadline != want && u.Deadline != 0 {
				t.Errorf("the restored step shows %d s, want %d", u.Deadline, want)
			}
			clk2.Advance(c.left + RestartGrace - time.Second)
			stillAt(t, a2, 0, "the step ended early after the restart")
			clk2.Advance(time.Second)
			waitFor(t, a2, "the resumed step's end", func(u Update) bool { return u.Seq == 1 })
			if rec, _ := j.Room(r.Code()); rec.Timer == nil || !rec.Timer.Deadline.Equal(clk2.Now().Add(time.Minute)) {
				t.Errorf("the next step saved %+v, want a full minute", rec.Timer)
			}
		})
	}
}
