package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// race is a tiny game for testing the actor: seats take turns adding 1..3 to
// a counter; whoever brings it to Goal wins. Each seat holds a secret only
// its own view shows. A turn times out after Turn; the timeout adds 1.
type race struct {
	goal    int // 0: 10
	turn    time.Duration
	panicAt int // Apply panics when the counter reaches this (0: never)
	block   chan struct{}
}

type raceState struct {
	Counter, Active, Goal, Turns int
	Secrets                      []string
	Winner                       game.Seat
	Abandoned                    bool // System's "abandon": over, no winner
}

type raceView struct {
	Counter, Active int
	Secret          string
	Others          int // how many secrets exist (never their values)
	Legal           []int
}

func (g race) ID() string    { return "race" }
func (g race) Title() string { return "Race" }
func (g race) New(s game.Setup, seed uint64) (game.State, []game.Event, error) {
	if len(s.Names) < 2 {
		return nil, nil, errors.New("need 2 players")
	}
	st := &raceState{Goal: 10, Winner: -1}
	if g.goal > 0 {
		st.Goal = g.goal
	}
	for i := range s.Names {
		st.Secrets = append(st.Secrets, fmt.Sprintf("SECRET-%d-%d", i, seed))
	}
	return st, []game.Event{{Audience: game.Everyone(), Text: "The race begins."}}, nil
}
func (g race) Apply(s game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	st := s.(*raceState)
	if g.block != nil {
		<-g.block
	}
	if st.Winner >= 0 || st.Abandoned {
		return s, nil, game.ErrGameOver
	}
	cp := *st // pure, as a game's rules are: a refused append must leave the state as it was
	st = &cp
	if a == "abandon" && seat == game.System {
		st.Abandoned = true
		return st, []game.Event{{Audience: game.Everyone(), Text: "The race is abandoned."}}, nil
	}
	n, ok := a.(int)
	if !ok || n < 1 || n > 3 {
		return s, nil, game.ErrBadAction
	}
	if seat == game.System {
		seat = game.Seat(st.Active)
	} else if int(seat) != st.Active {
		return s, nil, game.ErrNotYourTurn
	}
	if g.panicAt > 0 && st.Counter+n >= g.panicAt {
		panic("race: boom")
	}
	st.Counter += n
	st.Turns++
	evs := []game.Event{{Audience: game.Everyone(), Text: fmt.Sprintf("seat %d adds %d", seat, n)},
		{Audience: game.Only(seat), Kind: game.Private, Text: "you added " + st.Secrets[seat]}}
	if st.Counter >= st.Goal {
		st.Winner = seat
	}
	st.Active = (st.Active + 1) % len(st.Secrets)
	return st, evs, nil
}
func (g race) Clone(s game.State) game.State { c := *s.(*raceState); return &c }
func (g race) Legal(s game.State, seat game.Seat) []game.Action {
	st := s.(*raceState)
	if st.Winner >= 0 || st.Abandoned || int(seat) != st.Active {
		return nil
	}
	return []game.Action{1, 2, 3}
}
func (g race) Waiting(s game.State) []game.Seat {
	st := s.(*raceState)
	if st.Winner >= 0 || st.Abandoned {
		return nil
	}
	return []game.Seat{game.Seat(st.Active)}
}
func (g race) View(s game.State, seat game.Seat) game.View {
	st := s.(*raceState)
	v := raceView{Counter: st.Counter, Active: st.Active, Others: len(st.Secrets)}
	if seat >= 0 {
		v.Secret = st.Secrets[seat]
		for _, a := range g.Legal(s, seat) {
			v.Legal = append(v.Legal, a.(int))
		}
	}
	return v
}
func (g race) Timer(s game.State) (game.Timer, bool) {
	st := s.(*raceState)
	if g.turn == 0 || st.Winner >= 0 || st.Abandoned {
		return game.Timer{}, false
	}
	return game.Timer{ID: uint64(st.Turns + 1), After: g.turn, Action: 1}, true
}
func (g race) Say(s game.State, seat game.Seat, text string) ([]game.Event, error) {
	if strings.Contains(text, "SECRET") {
		return nil, errors.New("no telling secrets")
	}
	if rest, ok := strings.CutPrefix(text, "psst "); ok { // a private line to the player on the left
		next := (seat + 1) % game.Seat(len(s.(*raceState).Secrets))
		return []game.Event{{Audience: game.Only(seat, next), Kind: game.Chat, From: seat, Channel: "whisper", Text: rest}}, nil
	}
	return []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: text}}, nil
}
func (g race) Result(s game.State) (game.Result, bool) {
	st := s.(*raceState)
	if st.Abandoned {
		return game.Result{Outcome: "abandoned", Summary: game.M("abandoned")}, true
	}
	if st.Winner < 0 {
		return game.Result{}, false
	}
	return game.Result{Outcome: "win", Winners: []game.Seat{st.Winner}, Summary: game.M("race.won", game.Num("Seat", int(st.Winner)))}, true
}
func (g race) EncodeAction(a game.Action) ([]byte, error) { return json.Marshal(a) }
func (g race) DecodeAction(b []byte) (game.Action, error) {
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		return n, nil
	}
	var word string
	err := json.Unmarshal(b, &word)
	return word, err
}

type raceBots struct{}

func (raceBots) Levels() []string { return []string{"easy"} }
func (raceBots) New(level string) (game.Bot, error) {
	return botFunc(func(v game.View, _ uint64) (game.Action, bool) {
		rv := v.(raceView)
		if len(rv.Legal) == 0 {
			return nil, false
		}
		return rv.Legal[len(rv.Legal)-1], true
	}), nil
}

type botFunc func(game.View, uint64) (game.Action, bool)

func (f botFunc) Act(v game.View, seed uint64) (game.Action, bool) { return f(v, seed) }

// waitFor reads box until an Update satisfies ok.
func waitFor(t *testing.T, box *Mailbox, what string, ok func(Update) bool) Update {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		u, more := box.Next(ctx)
		if !more {
			t.Fatalf("timed out waiting for %s", what)
		}
		if ok(u) {
			return u
		}
	}
}

func newTestRoom(t *testing.T, g game.Game, cfg RoomConfig) (*Hub, *Room) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	h := NewHub(ctx, nil)
	cfg.Game = g
	if cfg.Seats == 0 {
		cfg.Seats = 3
	}
	if cfg.Host == "" {
		cfg.Host = "alice"
	}
	r, err := h.Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h, r
}

// cmdSettle is a kind the actor does not know: it answers it and does
// nothing else.
const cmdSettle cmdKind = 255

// settle returns once the actor has handled every command submitted before
// it: what a manual clock's Advance handed the room (a takeover, a closing)
// is done, so its absence can be checked without waiting on wall time.
func settle(t *testing.T, r *Room) {
	t.Helper()
	if err := r.call(context.Background(), command{kind: cmdSettle}); err != nil {
		t.Fatal(err)
	}
}

func join(t *testing.T, r *Room, id string) (*Mailbox, game.Seat) {
	t.Helper()
	box := NewMailbox()
	seat, err := r.Join(context.Background(), Player{ID: id, Name: id}, box, false)
	if err != nil {
		t.Fatal(err)
	}
	return box, seat
}

// watch has id watch the table, and returns the watcher's mailbox.
func watch(t *testing.T, r *Room, id string) *Mailbox {
	t.Helper()
	box := NewMailbox()
	if _, err := r.Join(context.Background(), Player{ID: id, Name: id}, box, true); err != nil {
		t.Fatal(err)
	}
	return box
}

func TestRoomPlaysToTheEndWithBots(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Bots: raceBots{}, Options: Options{BotLevel: "easy"}, Journal: j})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	ends := make(chan Update, 2)
	for _, box := range []*Mailbox{alice, bob} {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for {
				u, ok := box.Next(ctx)
				if !ok || u.Over {
					ends <- u
					return
				}
				if u.Started && len(u.View.(raceView).Legal) > 0 {
					r.Act(box, u.Seq, 1)
				}
			}
		}()
	}
	u := <-ends
	if u2 := <-ends; !u2.Over {
		t.Fatal("a player never saw the end")
	}
	if u.Result == nil || u.Result.Outcome != "win" {
		t.Fatalf("result %+v", u.Result)
	}
	if rec, _ := j.Room(r.Code()); rec.Status != StatusOver || int(rec.Seq) != len(j.Log(r.Code())) {
		t.Fatalf("saved record %+v with %d entries", rec, len(j.Log(r.Code())))
	}
}

func TestRoomRefusalGoesOnlyToTheActingSeat(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, bob, "started", func(u Update) bool { return u.Started })
	if err := r.Act(bob, u.Seq, 2); err != nil { // alice's turn, not bob's
		t.Fatal(err)
	}
	got := waitFor(t, bob, "a notice", func(u Update) bool { return !u.Notice.IsZero() })
	if !strings.Contains(noticeText(got.Notice), "not your turn") || got.Seq != u.Seq {
		t.Fatalf("notice %q seq %d", got.Notice, got.Seq)
	}
	if err := r.Say(alice, "hello"); err != nil {
		t.Fatal(err)
	}
	a := waitFor(t, alice, "chat", func(u Update) bool { return len(u.Log) > 0 && u.Log[len(u.Log)-1].Text == "hello" })
	if !a.Notice.IsZero() {
		t.Fatalf("alice saw bob's notice %q", a.Notice)
	}
}

// raceTogether makes its members' views at once (game.Views) and counts
// how it was asked.
type raceTogether struct {
	race
	together, alone *atomic.Int32
}

func (g raceTogether) View(s game.State, seat game.Seat) game.View {
	g.alone.Add(1)
	return g.race.View(s, seat)
}

func (g raceTogether) Views(s game.State, seats []game.Seat) []game.View {
	g.together.Add(1)
	out := make([]game.View, len(seats))
	for i, seat := range seats {
		out[i] = g.race.View(s, seat)
	}
	return out
}

// A game that makes its views together is asked once per change for all
// the members' seats, the watchers' included, and each member still gets
// its own seat's view.
func TestRoomAsksForTheViewsTogether(t *testing.T) {
	g := raceTogether{together: new(atomic.Int32), alone: new(atomic.Int32)}
	_, r := newTestRoom(t, g, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	watcher := watch(t, r, "carol")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, alice, "started", func(u Update) bool { return u.Started })
	if err := r.Act(alice, u.Seq, 1); err != nil {
		t.Fatal(err)
	}
	a := waitFor(t, alice, "the move", func(u Update) bool { return u.View.(raceView).Counter == 1 })
	b := waitFor(t, bob, "the move", func(u Update) bool { return u.Started && u.View.(raceView).Counter == 1 })
	w := waitFor(t, watcher, "the move", func(u Update) bool { return u.Started && u.View.(raceView).Counter == 1 })
	if !strings.HasPrefix(a.View.(raceView).Secret, "SECRET-0-") {
		t.Errorf("alice's view: %+v", a.View)
	}
	if !strings.HasPrefix(b.View.(raceView).Secret, "SECRET-1-") || w.View.(raceView).Secret != "" {
		t.Errorf("bob's view %+v, the watcher's %+v", b.View, w.View)
	}
	if g.together.Load() < 2 || g.alone.Load() != 0 {
		t.Errorf("views made together %d times, one by one %d times", g.together.Load(), g.alone.Load())
	}
}

func TestRoomViewsNeverCarryAnotherSeatsSecret(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Bots: raceBots{}, Options: Options{BotLevel: "easy"}})
	alice, _ := join(t, r, "alice")
	watcher := watch(t, r, "carol")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	check := func(u Update, mine string) {
		b, _ := json.Marshal(u)
		for i := 0; i < 2; i++ {
			s := fmt.Sprintf("SECRET-%d-", i)
			if strings.Contains(string(b), s) && !strings.HasPrefix(mine, s) {
				t.Fatalf("update for %q leaks %s: %s", mine, s, b)
			}
		}
	}
	for {
		u := waitFor(t, alice, "any", func(Update) bool { return true })
		check(u, "SECRET-0-")
		if w, ok := watcherPeek(watcher); ok {
			check(w, "none")
		}
		if u.Over {
			return
		}
		if u.Started && len(u.View.(raceView).Legal) > 0 {
			r.Act(alice, u.Seq, 3)
		}
	}
}

func watcherPeek(b *Mailbox) (Update, bool) {
	select {
	case u := <-b.C():
		return *u, true
	default:
		return Update{}, false
	}
}

func TestRoomStaleKeyIsRefusedOnlyWhenChoicesChanged(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	u := waitFor(t, alice, "started", func(u Update) bool { return u.Started })
	r.Act(alice, u.Seq, 1)
	u2 := waitFor(t, bob, "bob's turn", func(u Update) bool { return u.Seq == 1 })
	r.Act(bob, u2.Seq, 1)
	waitFor(t, alice, "alice's turn again", func(u Update) bool { return u.Seq == 2 })
	// A key alice pressed on view 0 (her last turn) must not apply now.
	r.Act(alice, u.Seq, 3)
	got := waitFor(t, alice, "stale notice", func(u Update) bool { return !u.Notice.IsZero() })
	if got.Notice.Key != "table.err.stale" || got.View.(raceView).Counter != 2 {
		t.Fatalf("notice %q counter %d", got.Notice, got.View.(raceView).Counter)
	}
}

func TestRoomReconnectTakesTheSeatAndClosesTheOldSession(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	old, seat := join(t, r, "alice")
	join(t, r, "bob")
	again, seat2 := join(t, r, "alice")
	if seat != seat2 {
		t.Fatalf("seat %d then %d", seat, seat2)
	}
	waitFor(t, old, "closed", func(u Update) bool { return u.Closed == Elsewhere })
	u := waitFor(t, again, "seated", func(u Update) bool { return u.Seat == seat })
	if u.Closed != Open {
		t.Fatal(u.Closed.Key())
	}
}

func TestRoomPanicIsContained(t *testing.T) {
	h, r := newTestRoom(t, race{panicAt: 3}, RoomConfig{Seats: 2})
	other, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "x"})
	if err != nil {
		t.Fatal(err)
	}
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	r.Start(context.Background(), alice)
	u := waitFor(t, alice, "started", func(u Update) bool { return u.Started })
	r.Act(alice, u.Seq, 3)
	waitFor(t, alice, "closed", func(u Update) bool { return u.Closed == InternalError })
	<-r.Done()
	if h.Room(r.Code()) != nil || h.Room(other.Code()) == nil {
		t.Fatal("the broken room should be gone and the other still there")
	}
	x, _ := join(t, other, "x")
	waitFor(t, x, "the other room still answers", func(u Update) bool { return len(u.Seats) == 2 })
}

func TestRoomRestoreReplaysTheLog(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Journal: j})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	r.Act(alice, 0, 2)
	waitFor(t, bob, "move 1", func(u Update) bool { return u.Seq == 1 })
	r.Act(bob, 1, 3)
	before := waitFor(t, alice, "move 2", func(u Update) bool { return u.Seq == 2 })

	rec, _ := j.Room(r.Code())
	h2 := NewHub(t.Context(), nil)
	r2, err := h2.Restore(RoomConfig{Game: race{}, Journal: j}, rec, j.Log(r.Code()))
	if err != nil {
		t.Fatal(err)
	}
	alice2, _ := join(t, r2, "alice")
	after := waitFor(t, alice2, "restored", func(u Update) bool { return u.Started })
	if fmt.Sprint(after.View) != fmt.Sprint(before.View) || after.Seq != 2 || after.Seat != 0 {
		t.Fatalf("restored %+v, want %+v", after.View, before.View)
	}
	// And play goes on from there, durably.
	r2.Act(alice2, 2, 1)
	waitFor(t, alice2, "move 3", func(u Update) bool { return u.Seq == 3 })
	if len(j.Log(r.Code())) != 3 {
		t.Fatalf("log has %d entries", len(j.Log(r.Code())))
	}
}

func TestRoomBusyInboxAnswersBusy(t *testing.T) {
	block := make(chan struct{})
	_, r := newTestRoom(t, race{block: block}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	r.Start(context.Background(), alice)
	r.Act(alice, 0, 1) // the actor now waits inside Apply
	var busy bool
	for i := 0; i < 200 && !busy; i++ {
		busy = errors.Is(r.Act(alice, 0, 1), ErrBusy)
	}
	close(block)
	if !busy {
		t.Fatal("a full inbox never answered ErrBusy")
	}
}

func TestMailboxKeepsOnlyTheNewest(t *testing.T) {
	m := NewMailbox()
	for i := 0; i < 1000; i++ {
		m.Put(Update{Seq: i}) // never blocks, nobody reads
	}
	if u := <-m.C(); u.Seq != 999 {
		t.Fatalf("got %d", u.Seq)
	}
}

func TestHubShutdownTellsEverySession(t *testing.T) {
	h, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.Shutdown(ctx, Restarting); err != nil {
		t.Fatal(err)
	}
	waitFor(t, alice, "closed", func(u Update) bool { return u.Closed == Restarting })
}

// The host leaving before the start does not strand the table: once
// gone for AwayGrace, the next human there becomes host, says so, and can
// start (issue 18 item 7). The creator losing the connection keeps their
// seat, and with it the table (issue 37 item 6).
func TestRoomHostLeavingHandsTheTableOn(t *testing.T) {
	for _, how := range []string{"leave", "detach"} {
		clk := clocktest.New()
		_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk})
		alice, _ := join(t, r, "alice")
		bob, _ := join(t, r, "bob")
		if err := r.Start(context.Background(), bob); !errors.Is(err, ErrNotHost) {
			t.Fatalf("bob started alice's table: %v", err)
		}
		if how == "leave" {
			r.Leave(alice)
		} else {
			r.Detach(alice)
		}
		settle(t, r)
		clk.Advance(AwayGrace)
		settle(t, r)
		if how == "detach" {
			r.mustHost(t, "alice")
			alice, _ = join(t, r, "alice")
			if err := r.Start(context.Background(), alice); err != nil {
				t.Fatalf("alice back at her table cannot start it: %v", err)
			}
			continue
		}
		waitFor(t, bob, "bob told he is host", func(u Update) bool {
			return slices.ContainsFunc(u.Log, func(e *game.Event) bool { return strings.Contains(evText(e), "bob is the host now") })
		})
		r.mustHost(t, "bob")
		if err := r.Start(context.Background(), bob); errors.Is(err, ErrNotHost) {
			t.Fatalf("%s: the new host cannot start: %v", how, err)
		}
	}
}

// What the table is told when a player goes is what happens (issue 18 items
// 8 and 13): going to the lobby is not a lost connection, and a bot is
// announced only if one will play.
func TestRoomSaysTrulyWhatHappensToAnAbsentSeat(t *testing.T) {
	logHas := func(u Update, s string) bool {
		return slices.ContainsFunc(u.Log, func(e *game.Event) bool { return strings.Contains(evText(e), s) })
	}
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 3, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, TakeoverAfter: 2 * time.Minute})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	carol, _ := join(t, r, "carol")
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.StepAway(alice)
	u := waitFor(t, bob, "alice's going", func(u Update) bool { return logHas(u, "alice stepped away") })
	if !logHas(u, "A bot plays for them if they are not back within 2 minutes.") || logHas(u, "lost the connection") {
		t.Fatalf("the table was told: %v", u.Log[len(u.Log)-1].Text)
	}
	r.Detach(carol)
	waitFor(t, bob, "carol's going", func(u Update) bool { return logHas(u, "carol lost the connection") })
	r.Detach(bob)
	// Nobody is left to watch: the next to go is told the table waits.
	bobAgain, _ := join(t, r, "bob")
	r.Detach(bobAgain) // handled before alice's join: one inbox, in order
	back, _ := join(t, r, "alice")
	u = waitFor(t, back, "the log", func(u Update) bool { return logHas(u, "bob lost the connection") })
	if last := lastWith(u, "bob lost the connection"); !strings.Contains(last, "The table waits until someone is back.") {
		t.Fatalf("with nobody left the table was told: %q", last)
	}
}

func lastWith(u Update, s string) string {
	for i := len(u.Log) - 1; i >= 0; i-- {
		if strings.Contains(evText(u.Log[i]), s) {
			return evText(u.Log[i])
		}
	}
	return ""
}

// noticeText is a notice as an English reader reads it.
func noticeText(m game.Msg) string { return i18n.For(i18n.English).Msg(m) }

// evText is an event as an English reader reads it.
func evText(e *game.Event) string {
	if !e.Msg.IsZero() {
		return i18n.For(i18n.English).Msg(e.Msg)
	}
	return e.Text
}

// A waiting room whose creator has gone does not wait on them for ever:
// once they gave their seat up AwayGrace ago, whoever comes in next
// becomes the host and can start (issue 30 item 2); the creator of a new
// room is not passed over by someone quicker, and one who steps away
// keeping their seat stays its host (issue 37 item 6).
func TestRoomWithoutItsHostIsTakenOverByWhoeverComes(t *testing.T) {
	clk := clocktest.New()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 4, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, Clock: clk})
	early, _ := join(t, r, "bob")
	if h := r.Summary().Host; h != "alice" {
		t.Fatalf("bob, in before the creator, took the host: %q", h)
	}
	r.Leave(early)
	alice, _ := join(t, r, "alice")
	watch(t, r, "wendy") // someone is in: the room stays open when alice leaves
	r.Leave(alice)
	carol, _ := join(t, r, "carol")
	if h := r.Summary().Host; h != "alice" {
		t.Fatalf("carol, in a moment after alice left, took the host: %q", h)
	}
	clk.Advance(AwayGrace)
	waitFor(t, carol, "carol told she is host", func(u Update) bool {
		return slices.ContainsFunc(u.Log, func(e *game.Event) bool { return strings.Contains(evText(e), "carol is the host now") })
	})
	if h := r.Summary().Host; h != "carol" {
		t.Fatalf("after the grace the host is %q", h)
	}
	dave, _ := join(t, r, "dave")
	if err := r.Start(context.Background(), dave); !errors.Is(err, ErrNotHost) {
		t.Fatalf("dave started carol's table: %v", err)
	}
	if err := r.Start(context.Background(), carol); err != nil {
		t.Fatalf("the new host cannot start: %v", err)
	}
}

// Anna makes a table and steps into the lobby, keeping her seat; mallory
// joins. Anna stays the host however long she is away: mallory can
// neither start nor remove her; anna, back, still hosts. Mallory stepping
// away is safe from removal for AwayGrace, then anna may remove her.
func TestCreatorWhoStepsAwayStaysTheHost(t *testing.T) {
	clk := clocktest.New()
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 4, Host: "anna", Clock: clk, Journal: j})
	anna, annaSeat := join(t, r, "anna")
	r.StepAway(anna)
	mallory, mallorySeat := join(t, r, "mallory")
	var err error
	settle(t, r)
	if h := r.Summary().Host; h != "anna" {
		t.Fatalf("mallory took the host of anna's table: %q", h)
	}
	ctx := context.Background()
	if err := r.Remove(ctx, mallory, annaSeat); !errors.Is(err, ErrNotHost) {
		t.Fatalf("mallory removing anna: %v", err)
	}
	if err := r.Start(ctx, mallory); !errors.Is(err, ErrNotHost) {
		t.Fatalf("mallory starting anna's table: %v", err)
	}
	clk.Advance(24 * time.Hour)
	settle(t, r)
	if h := r.Summary().Host; h != "anna" {
		t.Fatalf("a day later mallory hosts anna's table: %q", h)
	}
	// A restart keeps who made the table.
	rec, _ := j.Room(r.Code())
	if rec.Creator != "anna" {
		t.Fatalf("the record's creator: %q", rec.Creator)
	}
	anna, _ = join(t, r, "anna")
	if h := r.Summary().Host; h != "anna" {
		t.Fatalf("anna back: the host is %q", h)
	}
	r.StepAway(mallory)
	settle(t, r)
	err = r.Remove(ctx, anna, mallorySeat)
	if !errors.Is(err, ErrRemoveAway) || !strings.Contains(noticeText(err.(*game.Error).Msg), "mallory") {
		t.Fatalf("removing mallory a moment after she stepped away: %v", err)
	}
	clk.Advance(AwayGrace)
	if err := r.Remove(ctx, anna, mallorySeat); err != nil {
		t.Fatalf("removing mallory away for the grace: %v", err)
	}
}

// The creator can never be removed from their table, even by a host the
// room passed on to while they were gone; sitting again, they host it.
func TestCreatorIsNeverRemoved(t *testing.T) {
	clk := clocktest.New()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 4, Host: "anna", Clock: clk})
	anna, _ := join(t, r, "anna")
	bob, _ := join(t, r, "bob")
	r.Leave(anna)
	settle(t, r) // the grace is armed
	clk.Advance(AwayGrace)
	settle(t, r)
	r.mustHost(t, "bob")
	anna, annaSeat := join(t, r, "anna")
	r.mustHost(t, "anna")
	r.StepAway(anna)
	settle(t, r)
	r.mustHost(t, "anna") // away, her seat held
	if err := r.Remove(context.Background(), bob, annaSeat); !errors.Is(err, ErrNotHost) {
		t.Fatalf("bob removing anna: %v", err)
	}
	// A room restored with bob as its host and anna seated (a record
	// from before creators were kept names none): anna cannot be removed.
	j := NewMemJournal()
	rec := RoomRecord{Code: "K7QX", Game: race{}.ID(), Seats: []SeatRecord{{Seat: 0, Identity: "anna", Name: "anna"},
		{Seat: 1, Identity: "bob", Name: "bob"}, {Seat: 2}}, Status: StatusWaiting, Host: "bob", Creator: "anna"}
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j, Clock: clk}, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	bob2, _ := join(t, r2, "bob")
	r2.mustHost(t, "anna") // her seat held: the creator hosts
	if err := r2.Remove(context.Background(), bob2, 0); !errors.Is(err, ErrNotHost) {
		t.Fatalf("bob removing anna after a restart: %v", err)
	}
}

func (r *Room) mustHost(t *testing.T, want string) {
	t.Helper()
	if h := r.Summary().Host; h != want {
		t.Fatalf("the host is %q, want %q", h, want)
	}
}

// A caller that stopped waiting for a busy room (its ctx ended) hears the
// table is busy, and its call is not carried out when the room gets to it:
// a join that timed out must not seat or attach the session afterwards.
func TestRoomCallGivenUpIsNotCarriedOut(t *testing.T) {
	block := make(chan struct{})
	_, r := newTestRoom(t, race{block: block}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	if err := r.Act(alice, 0, 1); err != nil { // the actor now waits inside Apply
		t.Fatal(err)
	}
	carol := NewMailbox()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := r.Join(ctx, Player{ID: "carol", Name: "carol"}, carol, true); !errors.Is(err, ErrBusy) {
		t.Fatalf("a join the room did not answer in time: %v, want ErrBusy", err)
	}
	close(block)
	settle(t, r)
	if w := r.Summary().Watchers; w != 0 {
		t.Errorf("the given-up join was carried out: %d watchers", w)
	}
	select {
	case u := <-carol.C():
		t.Errorf("the given-up join's session got an update: %+v", u)
	default:
	}
}
