package wolfbot

import (
	"fmt"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
)

// TestActorLikeLoop drives games only through game.Game and game.Bots,
// as the room actor does: every waiting seat's bot is asked (a fresh bot
// each time); a bot with nothing to say falls back to the first legal
// action; the timer fires when nobody is waiting.
func TestActorLikeLoop(t *testing.T) {
	var g game.Game = werewolf.Game{}
	var bots game.Bots = Bots{}
	for _, n := range []int{5, 8, 13, 18} {
		for seed := range uint64(3) {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprint("Seat", i)
			}
			st, _, err := g.New(game.Setup{Game: g.ID(), Names: names, Options: SimOptions(n).Encode()}, seed)
			if err != nil {
				t.Fatal(err)
			}
			steps := 0
			for ; steps < MaxActions; steps++ {
				if _, over := g.Result(st); over {
					break
				}
				acted := false
				for _, seat := range g.Waiting(st) {
					bot, _ := bots.New(bots.Levels()[int(seed)%2])
					a, ok := bot.Act(g.View(st, seat), seed+uint64(steps))
					if !ok {
						a = g.Legal(st, seat)[0]
					}
					next, _, err := g.Apply(st, seat, a)
					if err != nil {
						t.Fatalf("n=%d: bot action %v refused: %v", n, a, err)
					}
					st, acted = next, true
					break
				}
				if !acted {
					tm, ok := g.Timer(st)
					if !ok {
						t.Fatal("no timer")
					}
					st, _, _ = g.Apply(st, game.System, tm.Action)
				}
			}
			r, _ := g.Result(st)
			t.Logf("n=%d seed=%d: %s after %d steps", n, seed, r.Outcome, steps)
			if _, over := g.Result(st); !over {
				t.Fatalf("n=%d seed=%d: no end after %d steps", n, seed, steps)
			}
		}
	}
}
