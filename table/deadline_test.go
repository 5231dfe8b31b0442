package table

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
)

// turns records what a correspondence table tells OnTurn.
type turns struct {
	mu  sync.Mutex
	all []Turn
}

func (ts *turns) add(t Turn) {
	ts.mu.Lock()
	ts.all = append(ts.all, t)
	ts.mu.Unlock()
}

func (ts *turns) last() Turn {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(ts.all) == 0 {
		return Turn{}
	}
	return ts.all[len(ts.all)-1]
}

func waitingIDs(t Turn) []string {
	var ids []string
	for _, w := range t.Waiting {
		ids = append(ids, w.Identity)
	}
	return ids
}

// entries decodes a room's log.
func entries(t *testing.T, j *MemJournal, code string) []Entry {
	t.Helper()
	var out []Entry
	for _, b := range j.Log(code) {
		e, err := DecodeEntry(b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// nextDeadline waits until the table waits on a person again (its bots
// think off the actor) and returns that decision's deadline.
func nextDeadline(t *testing.T, r *Room, clk *clocktest.Manual) time.Time {
	t.Helper()
	var at time.Time
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		settle(t, r)
		if at = r.Summary().Deadline; !at.After(clk.Now()) {
			return errors.New("no deadline ahead")
		}
		return nil
	})
	return at
}

// corrRoom is a race at correspondence pace, an hour a decision: alice,
// bob and a bot, on a manual clock.
func corrRoom(t *testing.T, g game.Game, clk *clocktest.Manual, j *MemJournal, ts *turns) (*Hub, *Room, *Mailbox, *Mailbox) {
	t.Helper()
	h, r := newTestRoom(t, g, RoomConfig{Seats: 3, Clock: clk, Bots: raceBots{}, FillBots: 1, Journal: j,
		Options: Options{BotLevel: "easy", Pace: Pace{Correspondence: true, Decision: time.Hour}}, OnTurn: ts.add, IdleClose: 15 * time.Minute,
		DesertedAfter: 30 * time.Minute})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	return h, r, alice, bob
}

// A decision left past its deadline is made by the seat's stand-in, once,
// stamped in the log with its time and why; the player is told on their
// own; the next decision's clock starts from that move. Nobody needs to be
// at the table, and the table is never closed for being deserted.
func TestCorrespondenceDeadlineHasTheStandInDecide(t *testing.T) {
	clk, j, ts := clocktest.New(), NewMemJournal(), &turns{}
	_, r, alice, bob := corrRoom(t, race{}, clk, j, ts)
	if got := ts.last(); !slices.Equal(waitingIDs(got), []string{"alice"}) || !got.Deadline.Equal(clocktest.Epoch.Add(time.Hour)) || got.Window != time.Hour {
		t.Fatalf("at the start OnTurn heard %+v", got)
	}
	clk.Advance(10 * time.Minute)
	r.Act(alice, 0, 2)
	waitFor(t, alice, "alice's move", func(u Update) bool { return u.Seq == 1 })
	if got := ts.last(); !slices.Equal(waitingIDs(got), []string{"bob"}) || !slices.Equal(got.Done, []string{"alice"}) ||
		!got.Deadline.Equal(clocktest.Epoch.Add(70*time.Minute)) || got.Decision != 1 {
		t.Fatalf("after alice's move OnTurn heard %+v", got)
	}
	if s := r.Summary(); !slices.Equal(s.Waiting, []string{"bob"}) || !s.Deadline.Equal(clocktest.Epoch.Add(70*time.Minute)) || !s.Pace.Correspondence {
		t.Fatalf("the lobby reads %+v", s)
	}
	r.StepAway(alice)
	r.Detach(bob)
	carol := watch(t, r, "carol")
	settle(t, r)
	clk.Advance(59*time.Minute + 59*time.Second)
	settle(t, r)
	if n := len(j.Log(r.Code())); n != 1 {
		t.Fatalf("%d entries a second before the deadline", n)
	}
	clk.Advance(time.Second)
	// bob's stand-in plays 3; the bot seat plays at once; alice's decision opens.
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		if len(j.Log(r.Code())) < 3 {
			return errors.New("the stand-in has not played")
		}
		return nil
	})
	es := entries(t, j, r.Code())
	if es[0].Late || !es[0].At.Equal(clocktest.Epoch.Add(10*time.Minute)) {
		t.Errorf("alice's own move: %+v", es[0])
	}
	if !es[1].Late || !es[1].StandIn || es[1].Seat != 1 || !es[1].At.Equal(clocktest.Epoch.Add(70*time.Minute)) {
		t.Errorf("bob's stand-in's move: %+v", es[1])
	}
	if es[2].StandIn || es[2].Seat != 2 {
		t.Errorf("the bot's move: %+v", es[2])
	}
	settle(t, r)
	if got := ts.last(); !slices.Equal(waitingIDs(got), []string{"alice"}) || !got.Deadline.Equal(es[2].At.Add(time.Hour)) {
		t.Fatalf("after the stand-in OnTurn heard %+v", got)
	}
	if u := waitFor(t, carol, "the stand-in's move", func(u Update) bool { return u.Seq == 3 }); lastWith(u, "a bot decided") != "" {
		t.Errorf("a watcher read of bob's stand-in: %q", lastWith(u, "a bot decided"))
	}
	// Nobody at the table for days: it goes on (and may end), never closed.
	nextDeadline(t, r, clk)
	clk.Advance(48 * time.Hour)
	settle(t, r)
	if st := r.Summary().Status; st == StatusClosed {
		t.Fatalf("a correspondence table closed with nobody at it")
	}
	// bob comes back: he reads why a bot played for him, on his own.
	back, _ := join(t, r, "bob")
	u := waitFor(t, back, "bob back", func(u Update) bool { return u.Seat == 1 && u.Started })
	if got := noticeText(u.Notice); got != "While you were away your deadline passed once: a bot decided for you." {
		t.Errorf("bob's notice: %q", got)
	}
	if lastWith(u, "Your deadline passed: a bot decided for you.") == "" {
		t.Errorf("bob's log: %v", u.Log)
	}
}

// Missed deadlines in a row give the seat to its stand-in until the
// player comes back and acts; acting clears the count.
func TestMissedDeadlinesGiveTheSeatToTheBot(t *testing.T) {
	clk, j, ts := clocktest.New(), NewMemJournal(), &turns{}
	_, r, alice, bob := corrRoom(t, race{goal: 1000}, clk, j, ts)
	r.StepAway(alice)
	r.StepAway(bob)
	settle(t, r)
	// Each hour the table waits on one person; the bots play between.
	for range 2*MissesToBot - 1 {
		n := len(j.Log(r.Code()))
		clk.Advance(nextDeadline(t, r, clk).Sub(clk.Now()))
		clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
			if len(j.Log(r.Code())) <= n {
				return errors.New("no stand-in yet")
			}
			return nil
		})
	}
	nextDeadline(t, r, clk)
	// alice missed MissesToBot in a row: her stand-in plays her seat; bob
	// one fewer, and the table waits on him.
	s := r.Summary()
	if s.Seats[0].Bot != StandIn || s.Seats[1].Bot != "" || !slices.Equal(s.Waiting, []string{"bob"}) {
		t.Fatalf("after %d misses: seats %+v, waiting %v", MissesToBot, s.Seats, s.Waiting)
	}
	misses := map[game.Seat]int{}
	for _, e := range entries(t, j, r.Code()) {
		if e.Late {
			misses[e.Seat]++
		}
	}
	if misses[0] != MissesToBot || misses[1] != MissesToBot-1 {
		t.Errorf("late moves per seat %v", misses)
	}
	// bob's next miss gives his seat away too: the bots play the table
	// out, and it waits on nobody.
	clk.Advance(time.Hour)
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		if s := r.Summary(); s.Status == StatusPlaying && s.Seats[1].Bot != StandIn {
			return errors.New("bob's seat is still his")
		}
		return nil
	})
	// alice comes back: she reads why, and her first move takes her seat
	// back and clears her count.
	back, _ := join(t, r, "alice")
	u := waitFor(t, back, "alice back", func(u Update) bool { return u.Started && !u.Notice.IsZero() })
	if got := noticeText(u.Notice); got != "While you were away your deadline passed 3 times in a row and a bot played your seat: it is yours again." {
		t.Errorf("alice's notice: %q", got)
	}
	if u.Seats[0].Bot != "" {
		t.Errorf("alice is back but her seat is %+v", u.Seats[0])
	}
}

// aliceMovesThenTheServerStops has alice make her first move at r, then
// stops h as a kill -9 would (nothing more is written), and returns the
// room's code and the record it left in j.
func aliceMovesThenTheServerStops(t *testing.T, h *Hub, r *Room, alice *Mailbox, j *MemJournal) (string, RoomRecord) {
	t.Helper()
	r.Act(alice, 0, 2)
	waitFor(t, alice, "alice's move", func(u Update) bool { return u.Seq == 1 })
	settle(t, r)
	code := r.Code()
	if err := h.Shutdown(context.Background(), Restarting); err != nil {
		t.Fatal(err)
	}
	rec, _ := j.Room(code)
	return code, rec
}

// A restart, or another node, derives the deadline from the log: it fires
// at the same moment, and the stand-in's move is made once.
func TestCorrespondenceDeadlineSurvivesARestart(t *testing.T) {
	clk, j, ts := clocktest.New(), NewMemJournal(), &turns{}
	h, r, alice, _ := corrRoom(t, race{}, clk, j, ts)
	clk.Advance(10 * time.Minute)
	code, rec := aliceMovesThenTheServerStops(t, h, r, alice, j)
	if !rec.Pace.Correspondence || !rec.Started.Equal(clocktest.Epoch) || !slices.Equal(rec.Waiting, []string{"bob"}) {
		t.Fatalf("the saved record %+v", rec)
	}
	restore := func(clk *clocktest.Manual, ts *turns) *Room {
		t.Helper()
		rec, _ := j.Room(code)
		r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j, Bots: raceBots{}, Clock: clk, OnTurn: ts.add}, rec, j.Log(code))
		if err != nil {
			t.Fatal(err)
		}
		settle(t, r2)
		return r2
	}
	// Restored 40 minutes later: the deadline is still 70 minutes in.
	clk2, ts2 := clocktest.NewAt(clocktest.Epoch.Add(50*time.Minute)), &turns{}
	r2 := restore(clk2, ts2)
	if got := ts2.last(); !slices.Equal(waitingIDs(got), []string{"bob"}) || !got.Deadline.Equal(clocktest.Epoch.Add(70*time.Minute)) || got.Decision != 1 {
		t.Fatalf("restored, OnTurn heard %+v", got)
	}
	clk2.Advance(19*time.Minute + 59*time.Second)
	settle(t, r2)
	if n := len(j.Log(code)); n != 1 {
		t.Fatalf("%d entries a second before the deadline", n)
	}
	clk2.Advance(time.Second)
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		if len(j.Log(code)) < 3 {
			return errors.New("the stand-in has not played")
		}
		return nil
	})
	settle(t, r2)
	r2.Close(Restarting)
	<-r2.Done()
	// Restored again long after: what fired is in the log and does not
	// fire again; alice's deadline, passed meanwhile, fires at once.
	n := len(j.Log(code))
	clk3 := clocktest.NewAt(clocktest.Epoch.Add(5 * time.Hour))
	r3 := restore(clk3, &turns{})
	clk3.Advance(0)
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		if len(j.Log(code)) <= n {
			return errors.New("alice's passed deadline has not fired")
		}
		return nil
	})
	settle(t, r3)
	es := entries(t, j, code)
	late := 0
	for _, e := range es {
		if e.Late && e.Seat == 1 {
			late++
		}
	}
	if late != 1 {
		t.Errorf("bob's deadline fired %d times", late)
	}
	if e := es[n]; !e.Late || e.Seat != 0 || !e.At.Equal(clocktest.Epoch.Add(5*time.Hour)) {
		t.Errorf("alice's late move %+v", e)
	}
}

// raceOverdue is a race whose timed steps end with a stand-in deciding for
// the seat that has not (game.Overdue).
type raceOverdue struct{ race }

func (g raceOverdue) Overdue(s game.State) []game.Seat { return g.Waiting(s) }

// A timed step past its deadline: with stand-ins the seat's bot decides
// (and the step's own action does not apply); without, the step's action
// applies, as the rules' timeout says.
func TestTimedStepAtItsDeadline(t *testing.T) {
	for _, standIns := range []bool{true, false} {
		clk, j := clocktest.New(), NewMemJournal()
		g := raceOverdue{race{turn: 6 * time.Hour}}
		_, r := newTestRoom(t, g, RoomConfig{Seats: 2, Clock: clk, Bots: raceBots{}, Journal: j,
			Options: Options{NoTakeover: !standIns, Pace: Pace{Correspondence: true}}})
		alice, _ := join(t, r, "alice")
		join(t, r, "bob")
		r.Start(context.Background(), alice)
		u := waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
		if u.Deadline != 6*3600 {
			t.Fatalf("the step shows %d s left", u.Deadline)
		}
		clk.WaitTimers(t, 1)
		clk.Advance(6 * time.Hour)
		u = waitFor(t, alice, "the step's end", func(u Update) bool { return u.Seq == 1 })
		es := entries(t, j, r.Code())
		switch {
		case standIns && (!es[0].Late || es[0].Seat != 0 || u.View.(raceView).Counter != 3):
			t.Errorf("with stand-ins: %+v, counter %d", es[0], u.View.(raceView).Counter)
		case !standIns && (es[0].Seat != game.System || u.View.(raceView).Counter != 1):
			t.Errorf("without: %+v, counter %d", es[0], u.View.(raceView).Counter)
		}
		settle(t, r)
		if n := len(j.Log(r.Code())); n != 1 {
			t.Errorf("stand-ins %v: %d entries, want 1", standIns, n)
		}
	}
}

// Only keyed players sit at a correspondence table, within their limit.
func TestCorrespondenceSeatsAreForKeyedPlayers(t *testing.T) {
	limit := errors.New("too many")
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 3, Options: Options{Pace: Pace{Correspondence: true, Decision: time.Hour}},
		MaySit: func(id string) error {
			if id == "carol" {
				return limit
			}
			return nil
		}})
	if _, err := r.Join(context.Background(), Player{ID: "guest:X", Name: "g", Guest: true}, NewMailbox(), false); !errors.Is(err, ErrKeyedOnly) {
		t.Errorf("a guest: %v", err)
	}
	if _, err := r.Join(context.Background(), Player{ID: "carol", Name: "carol"}, NewMailbox(), false); !errors.Is(err, limit) {
		t.Errorf("carol at her limit: %v", err)
	}
	if _, seat := join(t, r, "alice"); seat != 0 {
		t.Errorf("alice sat at %d", seat)
	}
	if seat, err := r.Join(context.Background(), Player{ID: "guest:X", Name: "g", Guest: true}, NewMailbox(), true); err != nil || seat != game.Spectator {
		t.Errorf("a guest may watch: %v, %v", seat, err)
	}
}

// A table restored before anyone moved derives its first deadline from
// when the game began (a log with no action yet is no reason to forget
// it: the first decision's deadline once read as year 1 and fired at once).
func TestFirstDeadlineSurvivesARestartBeforeAnyMove(t *testing.T) {
	clk, j, ts := clocktest.New(), NewMemJournal(), &turns{}
	h, r, _, _ := corrRoom(t, race{}, clk, j, ts)
	settle(t, r)
	code := r.Code()
	if err := h.Shutdown(context.Background(), Restarting); err != nil {
		t.Fatal(err)
	}
	rec, _ := j.Room(code)
	clk2, ts2 := clocktest.NewAt(clocktest.Epoch.Add(20*time.Minute)), &turns{}
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j, Bots: raceBots{}, Clock: clk2, OnTurn: ts2.add}, rec, j.Log(code))
	if err != nil {
		t.Fatal(err)
	}
	settle(t, r2)
	if got := ts2.last(); !got.Deadline.Equal(clocktest.Epoch.Add(time.Hour)) || got.Decision != 0 {
		t.Fatalf("restored, OnTurn heard %+v", got)
	}
	if n := len(j.Log(code)); n != 0 {
		t.Fatalf("%d entries 40 minutes before the first deadline", n)
	}
	r2.Close(Restarting)
	<-r2.Done()
}

// A restored correspondence table names whom it waits on in its first
// summary (the lobby's "your move" and `ssh host games`), before its
// actor's first refresh: it listed nobody until then. OnTurn still hears
// it once, from that refresh.
func TestARestoredTableListsWhomItWaitsOnAtOnce(t *testing.T) {
	clk, j, ts := clocktest.New(), NewMemJournal(), &turns{}
	h, r, alice, _ := corrRoom(t, race{}, clk, j, ts)
	code, rec := aliceMovesThenTheServerStops(t, h, r, alice, j)
	h2, ts2 := NewHub(t.Context(), nil), &turns{}
	var first []string
	h2.Launched = func(r *Room) { first = r.Summary().Waiting } // the actor has not refreshed yet
	r2, err := h2.Restore(RoomConfig{Game: race{}, Journal: j, Bots: raceBots{}, Clock: clk, OnTurn: ts2.add}, rec, j.Log(code))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first, []string{"bob"}) {
		t.Errorf("the restored table's first summary waits on %q, want bob", first)
	}
	settle(t, r2)
	if got := ts2.last(); !slices.Equal(waitingIDs(got), []string{"bob"}) || len(got.Done) != 0 || len(ts2.all) != 1 {
		t.Errorf("restored, OnTurn heard %+v", ts2.all)
	}
	if got := r2.Summary().Waiting; !slices.Equal(got, []string{"bob"}) {
		t.Errorf("then waits on %q", got)
	}
	r2.Close(Restarting)
	<-r2.Done()
}

// A replay shows the seat's own player that a bot made a decision of
// theirs because their deadline passed; nobody else reads it.
func TestReplayShowsALateDecisionToItsSeat(t *testing.T) {
	clk, j, ts := clocktest.New(), NewMemJournal(), &turns{}
	_, r, _, _ := corrRoom(t, race{}, clk, j, ts)
	settle(t, r)
	clk.Advance(time.Hour)
	code := r.Code()
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		for _, e := range entries(t, j, code) {
			if e.Late {
				return nil
			}
		}
		return errors.New("no late decision yet")
	})
	settle(t, r)
	rec, _ := j.Room(code)
	late := entries(t, j, code)[0]
	told := func(seat game.Seat) bool {
		steps, err := Replay(race{}, rec.Setup, rec.Seed, j.Log(code), seat)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			for _, e := range st.Events {
				if e.Msg.Key == "table.deadline.decided_once" {
					return true
				}
			}
		}
		return false
	}
	if !late.Late || !told(late.Seat) {
		t.Errorf("the replay from seat %d does not say its deadline passed (first entry %+v)", late.Seat, late)
	}
	if told(game.Spectator) {
		t.Errorf("a spectator's replay says whose deadline passed")
	}
}
