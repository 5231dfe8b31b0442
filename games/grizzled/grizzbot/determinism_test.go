package grizzbot

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// recorder keeps every action a bot chose.
type recorder struct {
	bot game.Bot
	log *[]g.Action
}

func (r recorder) Act(v game.View, seed uint64) (game.Action, bool) {
	a, ok := r.bot.Act(v, seed)
	if ok {
		*r.log = append(*r.log, a.(g.Action))
	}
	return a, ok
}

func strongGameLog(t *testing.T, seed uint64) []g.Action {
	s := newGame(t, 4, g.Standard, seed)
	var log []g.Action
	bots := make([]game.Bot, 4)
	for i := range bots {
		bots[i] = recorder{bot: NewStrong(StrongConfig{Samples: 6, Horizon: 1, Gate: 1}), log: &log}
	}
	if _, err := Play(s, bots, seed); err != nil {
		t.Fatal(err)
	}
	return log
}

func TestStrongDeterministic(t *testing.T) {
	for seed := range uint64(3) {
		a, b := strongGameLog(t, seed), strongGameLog(t, seed)
		if len(a) != len(b) {
			t.Fatalf("seed %d: %d then %d actions", seed, len(a), len(b))
		}
		for i := range a {
			if !sameAction(a[i], b[i]) {
				t.Fatalf("seed %d: action %d: %s then %s", seed, i, a[i].String(), b[i].String())
			}
		}
	}
}
