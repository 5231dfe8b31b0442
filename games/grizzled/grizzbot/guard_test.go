package grizzbot

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// benefitAtWeightFour is the game the strong bot threw: seat 0 carries hard
// knocks of weight 4 (Wounded and two more), the support went its way after
// a successful mission, and its lucky charm is spent. Restoring the charm
// or declining loses at once; discarding a knock or two does not.
func benefitAtWeightFour() *g.SeatView {
	v := view(g.PhaseBenefit)
	me := &v.Players[0]
	me.HardKnocks = []g.CardID{g.Wounded, g.Fragile, g.Mute}
	me.Weight = 4
	me.CharmAvailable = false
	v.Waiting = []game.Seat{0}
	v.Legal = []g.Action{
		{Kind: g.ActBenefitCharm},
		{Kind: g.ActBenefitDecline},
		{Kind: g.ActBenefitDiscard, Cards: []g.CardID{g.Fragile}},
		{Kind: g.ActBenefitDiscard, Cards: []g.CardID{g.Wounded, g.Mute}},
	}
	return v
}

// TestNoBotThrowsTheGame: at every level, a benefit that loses on the spot
// is never chosen while another one keeps the game going.
func TestNoBotThrowsTheGame(t *testing.T) {
	for _, level := range (Bots{}).Levels() {
		bot, err := Bots{}.New(level)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(50) {
			v := benefitAtWeightFour()
			a, ok := bot.Act(*v, seed)
			if !ok {
				t.Fatalf("%s: no answer", level)
			}
			if act := a.(g.Action); v.LosesAtOnce(act) {
				t.Fatalf("%s bot (seed %d) chose %s, which loses at once", level, seed, act.String())
			}
		}
	}
}

// noThrow wraps a bot and fails the test when it answers a benefit with a
// choice that loses on the spot while another does not.
type noThrow struct {
	t      *testing.T
	bot    game.Bot
	traps  *int
	levels string
}

func (n noThrow) Act(v game.View, seed uint64) (game.Action, bool) {
	a, ok := n.bot.Act(v, seed)
	sv := v.(g.SeatView)
	if !ok || sv.Phase != g.PhaseBenefit {
		return a, ok
	}
	safe := slices.ContainsFunc(sv.Legal, func(l g.Action) bool { return !sv.LosesAtOnce(l) })
	loses := slices.ContainsFunc(sv.Legal, sv.LosesAtOnce)
	if safe && loses {
		*n.traps++
		if sv.LosesAtOnce(a.(g.Action)) {
			n.t.Fatalf("%s bot threw the game: %s", n.levels, a.(g.Action).String())
		}
	}
	return a, ok
}

// TestNoBotThrowsTheGameInPlay: the same over whole games, with the real
// situations bots meet.
func TestNoBotThrowsTheGameInPlay(t *testing.T) {
	games := map[string]int{LevelEasy: 300, LevelStrong: 12}
	if testing.Short() {
		games = map[string]int{LevelEasy: 100, LevelStrong: 4}
	}
	for _, level := range (Bots{}).Levels() {
		traps := 0
		for i := range games[level] {
			s := newGame(t, 2+i%4, g.Standard, uint64(300+i))
			bots := make([]game.Bot, s.Seats())
			for j := range bots {
				bot, _ := Bots{Strong: StrongConfig{Samples: 4, Horizon: 1, Gate: 1}}.New(level)
				bots[j] = noThrow{t: t, bot: bot, traps: &traps, levels: level}
			}
			if _, err := Play(s, bots, uint64(i)); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d benefit choices where one option loses at once and another does not", level, traps)
	}
}
