package grizzbot

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// TestStrongBeatsEasy plays the same 4-player standard deals with easy
// bots and with (lightly budgeted) strong bots in every seat. The real
// measurement is `bivouac sim` with thousands of games; this only guards
// against a search that stopped helping.
func TestStrongBeatsEasy(t *testing.T) {
	games := 40
	if testing.Short() || raceEnabled {
		games = 12
	}
	cfg := StrongConfig{Samples: 12, Horizon: 1, Gate: 1}
	easy, strong := 0, 0
	for i := range games {
		for _, level := range []string{LevelEasy, LevelStrong} {
			s := newGame(t, 4, g.Standard, uint64(424242+i))
			bots := make([]game.Bot, 4)
			for j := range bots {
				if level == LevelEasy {
					bots[j] = NewEasy()
				} else {
					bots[j] = NewStrong(cfg)
				}
			}
			if _, err := Play(s, bots, uint64(i)); err != nil {
				t.Fatal(err)
			}
			if won, _ := s.Over(); won && level == LevelEasy {
				easy++
			} else if won {
				strong++
			}
		}
	}
	t.Logf("%d deals: easy won %d, strong won %d", games, easy, strong)
	if strong < easy+games/10 {
		t.Errorf("strong won %d of %d deals, easy %d: want a clear margin", strong, games, easy)
	}
}
