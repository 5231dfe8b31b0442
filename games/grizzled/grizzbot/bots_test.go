package grizzbot

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

var names = []string{"Anna", "Ben", "Chloé", "Dmitri", "Ewa"}

func newGame(t testing.TB, humans int, variant g.Variant, seed uint64) *g.State {
	t.Helper()
	s, _, err := g.NewGame(names[:humans], g.Options{Variant: variant, Leader: game.NoSeat}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// legalChecker wraps a bot and fails the test if it answers with an action
// that is not in the view's Legal list.
type legalChecker struct {
	t   testing.TB
	bot game.Bot
	n   int
}

func (c *legalChecker) Act(v game.View, seed uint64) (game.Action, bool) {
	a, ok := c.bot.Act(v, seed)
	sv := v.(g.SeatView)
	if !ok {
		c.t.Fatalf("bot has no answer to a view with %d legal actions", len(sv.Legal))
	}
	act := a.(g.Action)
	if !slices.ContainsFunc(sv.Legal, func(l g.Action) bool { return sameAction(l, act) }) {
		c.t.Fatalf("bot chose %s, not among the %d legal actions (phase %d)", act.String(), len(sv.Legal), sv.Phase)
	}
	c.n++
	return a, ok
}

func sameAction(a, b g.Action) bool {
	return a.Kind == b.Kind && a.K == b.K && a.Card == b.Card && a.Threat == b.Threat &&
		a.Tile == b.Tile && a.Target == b.Target && slices.Equal(a.Cards, b.Cards)
}

func TestEasyOnlyLegalAndGamesFinish(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 80
	}
	variants := []g.Variant{g.Standard, g.Beginner, g.Veteran}
	wins := 0
	for i := range games {
		humans := 2 + i%4
		s := newGame(t, humans, variants[i%3], uint64(i))
		bots := make([]game.Bot, s.Seats())
		for j := range bots {
			bots[j] = &legalChecker{t: t, bot: NewEasy()}
		}
		if _, err := Play(s, bots, uint64(i)); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if won, over := s.Over(); !over {
			t.Fatalf("game %d did not end", i)
		} else if won {
			wins++
		}
	}
	t.Logf("easy won %d of %d games", wins, games)
}

func TestStrongOnlyLegal(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for i := range games {
		humans := 2 + i%4
		s := newGame(t, humans, []g.Variant{g.Standard, g.Veteran, g.Beginner}[i%3], uint64(100+i))
		bots := make([]game.Bot, s.Seats())
		for j := range bots {
			bots[j] = &legalChecker{t: t, bot: NewStrong(StrongConfig{Samples: 3, Horizon: 1, Gate: 1})}
		}
		if _, err := Play(s, bots, uint64(i)); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if _, over := s.Over(); !over {
			t.Fatalf("game %d did not end", i)
		}
	}
}

func TestStrongFullRolloutsOnlyLegal(t *testing.T) {
	s := newGame(t, 4, g.Standard, 77)
	bots := make([]game.Bot, 4)
	for j := range bots {
		bots[j] = &legalChecker{t: t, bot: NewStrong(StrongConfig{Samples: 1})}
	}
	if _, err := Play(s, bots, 77); err != nil {
		t.Fatal(err)
	}
}

// The strong bot does not search a Merry Christmas with no hard knock in
// play (it would be wasted) while it has another card; with a knock in
// play, or nothing else in hand, it may (issue 18 item 15).
func TestStrongKeepsMerryChristmasForAKnock(t *testing.T) {
	b := &Strong{}
	mc, other := g.MerryChristmas, g.FirstThreat
	v := &g.SeatView{Phase: g.PhaseTurn, Hand: []g.CardID{mc, other},
		Legal:   []g.Action{{Kind: g.ActPlay, Card: mc}, {Kind: g.ActPlay, Card: other}},
		Players: []g.PlayerView{{}, {}}}
	if c := b.candidates(v, nil); len(c) != 1 || c[0] != 1 {
		t.Fatalf("no knock in play: candidates %v, want only the other card", c)
	}
	v.Players[1].HardKnocks = []g.CardID{g.FirstHardKnock}
	if c := b.candidates(v, nil); len(c) != 2 {
		t.Fatalf("a knock in play: candidates %v, want both", c)
	}
	v.Players[1].HardKnocks, v.Hand, v.Legal = nil, []g.CardID{mc}, v.Legal[:1]
	if c := b.candidates(v, nil); len(c) != 1 {
		t.Fatalf("MC alone in hand: candidates %v, want it", c)
	}
}

// Playouts caps samples × candidates: a choice among k moves takes
// Playouts/k samples (at least 2), and without the cap every sample is
// drawn.
func TestStrongPlayoutsCapSamples(t *testing.T) {
	s := newGame(t, 2, g.Veteran, 5)
	var v g.SeatView
	for range 200 { // on to a turn with a choice among at least 3 moves
		seat := firstWaiting(s)
		v = s.View(seat)
		if v.Phase == g.PhaseTurn && len(v.Legal) >= 3 {
			break
		}
		a, _ := NewEasy().Act(v, 1)
		if err := s.Step(seat, a.(g.Action)); err != nil {
			t.Fatal(err)
		}
	}
	if v.Phase != g.PhaseTurn || len(v.Legal) < 3 {
		t.Fatal("no turn with three moves to choose from")
	}
	const seed = 9
	count := func(cfg StrongConfig) (draws, moves int) {
		b := NewStrong(cfg)
		b.deal = func(v *g.SeatView, seed uint64) *g.State { draws++; return g.Determinize(*v, seed) }
		cands := b.candidates(&v, nil)
		if !slices.Contains(cands, choose(&v, seed, paramsFor(soldiers(&v)))) {
			cands = append(cands, -1) // the rule-based choice is searched too
		}
		b.choose(&v, seed)
		return draws, len(cands)
	}
	if draws, _ := count(StrongConfig{Samples: 40, Horizon: 1, Gate: 1}); draws != 40 {
		t.Fatalf("no cap: %d samples drawn, want 40", draws)
	}
	draws, moves := count(StrongConfig{Samples: 40, Horizon: 1, Gate: 1, Playouts: 12})
	if want := max(12/moves, 2); draws != want {
		t.Fatalf("12 playouts among %d moves: %d samples drawn, want %d", moves, draws, want)
	}
}
