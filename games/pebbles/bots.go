package pebbles

import (
	"fmt"
	"math/rand/v2"

	"github.com/bivouac-ssh/bivouac/game"
)

// Bot levels: easy takes at random; strong leaves the heap a multiple of
// three when it can, which wins every two-player game it can win.
const (
	Easy   = "easy"
	Strong = "strong"
)

// Bots makes Pebbles' bots (game.Bots).
type Bots struct{}

func (Bots) Levels() []string { return []string{Easy, Strong} }

func (Bots) New(level string) (game.Bot, error) {
	switch level {
	case Easy:
		return bot{}, nil
	case Strong:
		return bot{strong: true}, nil
	}
	return nil, fmt.Errorf("pebbles: no bot level %q", level)
}

type bot struct{ strong bool }

// Act takes from the seat's view alone, like every bot.
func (b bot) Act(v game.View, seed uint64) (game.Action, bool) {
	s, ok := v.(State)
	if !ok || s.Winner != game.NoSeat || s.Heap < 1 {
		return nil, false
	}
	if n := s.Heap % (MaxTake + 1); b.strong && n > 0 {
		return Take(n), true
	}
	return Take(1 + rand.New(rand.NewPCG(seed, 7)).IntN(min(MaxTake, s.Heap))), true
}
