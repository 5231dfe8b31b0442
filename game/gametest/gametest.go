// Package gametest is the conformance suite every game.Game must pass. A
// game's own test calls Run with a Config; the suite plays seeded random
// games through the generic interface only and checks the contract the
// table actor, persistence, replays and bots rely on:
//
//   - a refused action leaves the state as it was and yields no events;
//   - every action Legal lists is accepted, and an action it does not list
//     is refused;
//   - no seat's View changes when something that seat may not know changes
//     (the game says what that is, through Config.Conceal);
//   - every action survives EncodeAction/DecodeAction unchanged, and every
//     seat's view survives EncodeView/DecodeView (game.ViewCodec, which
//     the suite requires: a view travels between the nodes of a cluster);
//   - the same setup, seed and actions replay to the same state and events;
//   - hostile input (garbage actions, strange seats, huge chat lines) never
//     panics.
//
// A new game gets all of this by writing one test:
//
//	func TestConformance(t *testing.T) {
//		gametest.Run(t, gametest.Config{Game: Game{}, Setups: …, Snapshot: …, Conceal: …})
//	}
package gametest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// Config describes one game to the suite.
type Config struct {
	Game game.Game
	// Setups are the tables to play: player counts, variants, options.
	Setups []game.Setup
	// Games is the number of random games per setup (default 12; a third
	// of that, at least 2, under -short).
	Games int
	// MaxSteps bounds one game (default 20,000 actions): a game that runs
	// longer is reported as one that does not end.
	MaxSteps int

	// Snapshot returns a byte form of the whole state, hidden parts and RNG
	// included; two states are the same when their snapshots are.
	Snapshot func(game.State) ([]byte, error)

	// Conceal returns a copy of s in which something seat may not know has
	// been changed (another player's hidden card, the order of a face-down
	// pile, the RNG's future), or false when there is nothing to change at
	// this moment. It must leave s itself untouched.
	Conceal func(s game.State, seat game.Seat, r *rand.Rand) (game.State, bool)

	// Junk returns an action that the game may well refuse: random, hostile
	// or out-of-range input of the game's own action type. nil: the suite
	// decodes random bytes with DecodeAction.
	Junk func(r *rand.Rand) game.Action
}

func (c *Config) defaults(t *testing.T) {
	t.Helper()
	if c.Game == nil || len(c.Setups) == 0 || c.Snapshot == nil {
		t.Fatal("gametest: Config needs Game, Setups and Snapshot")
	}
	if c.Games <= 0 {
		c.Games = 12
	}
	if testing.Short() {
		c.Games = max(2, c.Games/3)
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 20000
	}
}

// Run runs the whole suite as subtests of t.
func Run(t *testing.T, c Config) {
	c.defaults(t)
	for i, setup := range c.Setups {
		name := fmt.Sprintf("%d-seats-%d", i, len(setup.Names))
		t.Run(name, func(t *testing.T) {
			for g := range c.Games {
				seed := uint64(1000*i + g + 1)
				h := &harness{t: t, c: &c, setup: setup, seed: seed,
					r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
				h.play()
				h.replay()
			}
		})
	}
}

// step is one accepted action of a played game.
type step struct {
	seat   game.Seat
	action game.Action
	events []game.Event
}

type harness struct {
	t     *testing.T
	c     *Config
	setup game.Setup
	seed  uint64
	r     *rand.Rand

	first []game.Event
	log   []step
	final []byte
}

func (h *harness) fatalf(format string, args ...any) {
	h.t.Helper()
	h.t.Fatalf("seed %d, step %d: %s", h.seed, len(h.log), fmt.Sprintf(format, args...))
}

// safely runs f and turns a panic into a test failure that says what was
// being done.
func (h *harness) safely(what string, f func()) {
	h.t.Helper()
	defer func() {
		if p := recover(); p != nil {
			h.fatalf("%s panicked: %v", what, p)
		}
	}()
	f()
}

func (h *harness) snapshot(s game.State) []byte {
	h.t.Helper()
	b, err := h.c.Snapshot(s)
	if err != nil {
		h.fatalf("snapshot: %v", err)
	}
	return b
}

// play plays one random game, checking every property at every step.
func (h *harness) play() {
	g := h.c.Game
	s, evs, err := g.New(h.setup, h.seed)
	if err != nil {
		h.t.Fatalf("seed %d: New(%v): %v", h.seed, h.setup.Names, err)
	}
	h.checkWords(evs)
	h.first = evs
	for range h.c.MaxSteps {
		if _, over := g.Result(s); over {
			h.checkOver(s)
			h.checkViewCodec(s)
			h.checkViewsTogether(s)
			h.final = h.snapshot(s)
			return
		}
		before := h.snapshot(s)
		h.checkViews(s, before)
		h.checkViewCodec(s)
		h.checkViewsTogether(s)
		h.checkLegal(s, before)
		h.checkHostile(s, before)
		if !bytes.Equal(before, h.snapshot(s)) {
			h.fatalf("View, Legal, Say, Conceal, Clone or Apply on a clone changed the original state")
		}
		seat, a, ok := h.choose(s)
		if !ok {
			h.fatalf("the game waits on nobody, has no timer and is not over")
		}
		h.checkCodec(a)
		next, evs, err := g.Apply(s, seat, a)
		if err != nil {
			h.fatalf("seat %d: chosen action %#v refused: %v", seat, a, err)
		}
		h.checkWords(evs)
		s = next
		h.log = append(h.log, step{seat, a, evs})
	}
	h.fatalf("the game did not end within %d actions", h.c.MaxSteps)
}

// checkWords: the rules write no words. Narration and private lines are
// messages (a catalog key and arguments, rendered per viewer); only a
// player's own chat line carries text.
func (h *harness) checkWords(evs []game.Event) {
	for _, e := range evs {
		if e.Kind != game.Chat && (e.Msg.IsZero() || e.Text != "") {
			h.fatalf("a %v event with text %q and message %v: narration must be a message without text", e.Kind, e.Text, e.Msg)
		}
	}
}

// choose picks the next action as a random table would: a waiting seat's
// legal action, or now and then (always, when nobody is waited on) the
// pending timer's expiry.
func (h *harness) choose(s game.State) (game.Seat, game.Action, bool) {
	g := h.c.Game
	waiting := g.Waiting(s)
	timer, timed := g.Timer(s)
	if timed && (len(waiting) == 0 || h.r.IntN(8) == 0) {
		return game.System, timer.Action, true
	}
	for _, i := range h.r.Perm(len(waiting)) {
		seat := waiting[i]
		if legal := g.Legal(s, seat); len(legal) > 0 {
			return seat, legal[h.r.IntN(len(legal))], true
		}
	}
	if timed {
		return game.System, timer.Action, true
	}
	if len(waiting) > 0 {
		h.fatalf("seats %v are waited on but none has a legal action", waiting)
	}
	return 0, nil, false
}

// seats is every seat that may look at or act on the table, plus a few that
// never exist.
func (h *harness) seats() []game.Seat {
	n := len(h.setup.Names)
	out := []game.Seat{game.Spectator}
	for i := range n + 1 { // a game may add seats of its own (the chaplain)
		out = append(out, game.Seat(i))
	}
	return out
}

// checkViews: what a seat sees may not depend on what it may not know.
func (h *harness) checkViews(s game.State, before []byte) {
	if h.c.Conceal == nil {
		return
	}
	g := h.c.Game
	for _, seat := range h.seats() {
		var other game.State
		var ok bool
		h.safely("Conceal", func() { other, ok = h.c.Conceal(s, seat, h.r) })
		if !ok {
			continue
		}
		if bytes.Equal(before, h.snapshot(other)) {
			h.fatalf("Conceal for seat %d said it changed something but did not", seat)
		}
		var v1, v2 any
		h.safely("View", func() { v1, v2 = g.View(s, seat), g.View(other, seat) })
		if !reflect.DeepEqual(v1, v2) {
			h.fatalf("seat %d's view changed with something it may not know:\n%+v\n%+v", seat, v1, v2)
		}
	}
}

// checkLegal: listed actions are accepted, on a copy; actions not listed
// are refused and change nothing. A few of each per seat and step: over a
// game's hundreds of steps that covers every kind many times, at a cost a
// race-enabled suite can pay.
func (h *harness) checkLegal(s game.State, before []byte) {
	g := h.c.Game
	for _, seat := range h.seats() {
		legal := g.Legal(s, seat)
		for _, i := range h.sample(len(legal), 3) {
			a := legal[i]
			if _, _, err := g.Apply(g.Clone(s), seat, a); err != nil {
				h.fatalf("seat %d: legal action %#v refused: %v", seat, a, err)
			}
		}
		for range 2 {
			a := h.junk()
			if a == nil || h.listed(legal, a) {
				continue
			}
			c := g.Clone(s)
			var err error
			var evs []game.Event
			var next game.State
			h.safely("Apply of an unlisted action", func() { next, evs, err = g.Apply(c, seat, a) })
			if err == nil {
				h.fatalf("seat %d: action %#v is not in Legal %v but was accepted", seat, a, legal)
			}
			if len(evs) > 0 {
				h.fatalf("seat %d: refused action %#v produced events %v", seat, a, evs)
			}
			if !bytes.Equal(before, h.snapshot(c)) || (next != c && !bytes.Equal(before, h.snapshot(next))) {
				h.fatalf("seat %d: refused action %#v changed the state (%v)", seat, a, err)
			}
		}
	}
}

// sample returns up to k distinct indexes below n, in random order.
func (h *harness) sample(n, k int) []int {
	p := h.r.Perm(n)
	return p[:min(k, n)]
}

// listed reports whether a is among legal, comparing encoded forms.
func (h *harness) listed(legal []game.Action, a game.Action) bool {
	b, err := h.c.Game.EncodeAction(a)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(legal, func(l game.Action) bool {
		lb, err := h.c.Game.EncodeAction(l)
		return err == nil && bytes.Equal(lb, b)
	})
}

func (h *harness) junk() game.Action {
	if h.c.Junk != nil {
		return h.c.Junk(h.r)
	}
	b := make([]byte, h.r.IntN(12))
	for i := range b {
		b[i] = byte(h.r.Uint32())
	}
	a, err := h.c.Game.DecodeAction(b)
	if err != nil {
		return nil
	}
	return a
}

// checkHostile throws garbage at the real state: nothing may panic, and
// anything refused changes nothing.
func (h *harness) checkHostile(s game.State, before []byte) {
	g := h.c.Game
	odd := []game.Seat{game.System, game.Spectator, -7, game.Seat(len(h.setup.Names) + 3), 1 << 30}
	for _, seat := range append(odd, h.seats()...) {
		a := h.junk()
		if a == nil {
			continue
		}
		h.safely("Apply of hostile input", func() {
			c := g.Clone(s)
			if _, evs, err := g.Apply(c, seat, a); err != nil && (len(evs) > 0 || !bytes.Equal(before, h.snapshot(c))) {
				h.fatalf("seat %d: refused hostile action %#v changed the state or spoke", seat, a)
			}
		})
		h.safely("Apply of a nil action", func() {
			if _, _, err := g.Apply(g.Clone(s), seat, nil); err == nil {
				h.fatalf("seat %d: a nil action was accepted", seat)
			}
		})
		h.safely("Say", func() {
			_, _ = g.Say(s, seat, hostileText(h.r))
		})
		h.safely("View and Legal", func() {
			_ = g.View(s, seat)
			_ = g.Legal(s, seat)
		})
	}
}

// bigPaste is a 2 MB paste, made once.
var bigPaste = strings.Repeat("A", 2<<20)

// hostileText is a chat line a hostile client might send.
func hostileText(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return bigPaste
	case 1:
		return "\x1b[2J\x1b]0;owned\a\u202e\u200b\x00"
	case 2:
		return string([]byte{0xff, 0xfe, 0xc3})
	default:
		return ""
	}
}

// checkCodec: an action about to be applied survives the codec exactly.
func (h *harness) checkCodec(a game.Action) {
	g := h.c.Game
	b, err := g.EncodeAction(a)
	if err != nil {
		h.fatalf("EncodeAction(%#v): %v", a, err)
	}
	back, err := g.DecodeAction(b)
	if err != nil {
		h.fatalf("DecodeAction(EncodeAction(%#v)): %v", a, err)
	}
	if !reflect.DeepEqual(back, a) {
		h.fatalf("action codec round trip: %#v became %#v", a, back)
	}
}

// checkViewCodec: every seat's view, the spectator's included, survives
// the view codec: the decoded view is the same value, to anyone who reads
// it (an empty list may come back nil), and encodes to the same bytes.
func (h *harness) checkViewCodec(s game.State) {
	g := h.c.Game
	vc, ok := g.(game.ViewCodec)
	if !ok {
		h.fatalf("%T does not implement game.ViewCodec", g)
	}
	for _, seat := range append(h.seats(), game.Spectator) {
		v := g.View(s, seat)
		b, err := vc.EncodeView(v)
		if err != nil {
			h.fatalf("EncodeView(seat %d): %v", seat, err)
		}
		back, err := vc.DecodeView(b)
		if err != nil {
			h.fatalf("DecodeView(EncodeView(seat %d)): %v", seat, err)
		}
		if !sameValue(reflect.ValueOf(v), reflect.ValueOf(back)) {
			h.fatalf("view codec round trip for seat %d:\n%#v\nbecame\n%#v", seat, v, back)
		}
		again, err := vc.EncodeView(back)
		if err != nil || !bytes.Equal(again, b) {
			h.fatalf("seat %d's decoded view encodes differently (%v):\n%s\n%s", seat, err, b, again)
		}
	}
}

// checkViewsTogether: a game that makes several seats' views at once
// (game.Views), as the room asks after each change, makes each one the
// same as View of its seat, the spectator's included.
func (h *harness) checkViewsTogether(s game.State) {
	vs, ok := h.c.Game.(game.Views)
	if !ok {
		return
	}
	seats := append(h.seats(), game.Spectator)
	var got []game.View
	h.safely("Views", func() { got = vs.Views(s, seats) })
	if len(got) != len(seats) {
		h.fatalf("Views of %d seats made %d views", len(seats), len(got))
	}
	for i, seat := range seats {
		if want := h.c.Game.View(s, seat); !reflect.DeepEqual(got[i], want) {
			h.fatalf("seat %d's view made with the others differs from its View:\n%+v\n%+v", seat, got[i], want)
		}
	}
}

// sameValue is reflect.DeepEqual except that a nil slice or map equals an
// empty one: JSON (and any reader of a view) cannot tell them apart.
func sameValue(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			if w := b.MapIndex(it.Key()); !w.IsValid() || !sameValue(it.Value(), w) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.String:
		return a.String() == b.String()
	}
	return false // funcs, channels: a view never holds one
}

// checkOver: a finished game waits on nobody and accepts no player action.
func (h *harness) checkOver(s game.State) {
	g := h.c.Game
	if w := g.Waiting(s); len(w) > 0 {
		h.fatalf("game over but still waiting on %v", w)
	}
	for _, seat := range h.seats() {
		if legal := g.Legal(s, seat); len(legal) > 0 {
			h.fatalf("game over but seat %d has legal actions %v", seat, legal)
		}
	}
}

// replay plays the recorded actions again from the same setup and seed: the
// events and the final state must be identical.
func (h *harness) replay() {
	g := h.c.Game
	s, first, err := g.New(h.setup, h.seed)
	if err != nil {
		h.t.Fatalf("seed %d: replay New: %v", h.seed, err)
	}
	if !reflect.DeepEqual(first, h.first) {
		h.t.Fatalf("seed %d: replay: New's events differ", h.seed)
	}
	for i, st := range h.log {
		b, _ := g.EncodeAction(st.action) // replays read actions back from the log
		a, err := g.DecodeAction(b)
		if err != nil {
			h.t.Fatalf("seed %d: replay step %d: decode: %v", h.seed, i, err)
		}
		var evs []game.Event
		s, evs, err = g.Apply(s, st.seat, a)
		if err != nil {
			h.t.Fatalf("seed %d: replay step %d: %#v by seat %d refused: %v", h.seed, i, a, st.seat, err)
		}
		if !reflect.DeepEqual(evs, st.events) {
			h.t.Fatalf("seed %d: replay step %d: events differ:\n%v\n%v", h.seed, i, evs, st.events)
		}
	}
	if !bytes.Equal(h.snapshot(s), h.final) {
		h.t.Fatalf("seed %d: replay ended in a different state", h.seed)
	}
}
