package grizzbot

import (
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bivouac/game"
	g "bivouac/game/grizzled"
)

func TestExperiment(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	players, _ := strconv.Atoi(os.Getenv("EXP_PLAYERS"))
	games, _ := strconv.Atoi(os.Getenv("EXP_GAMES"))
	variant := g.Variant(os.Getenv("EXP_VARIANT"))
	configs := map[string]StrongConfig{
		"base":   DefaultStrong,
		"tiles":  {Samples: 24, Horizon: 1, Gate: 1, exp: expFlags{tiles: true}},
		"speech": {Samples: 24, Horizon: 1, Gate: 1, exp: expFlags{speech: true}},
		"g0":     {Samples: 48, Horizon: 1, Gate: 0.5},
		"h2":     {Samples: 24, Horizon: 2, Gate: 1},
		"s64":    {Samples: 64, Horizon: 1, Gate: 1, exp: expFlags{tiles: true}},
		"h3":     {Samples: 24, Horizon: 3, Gate: 1},
		"h0":     {Samples: 24, Horizon: 0, Gate: 1},
		"h2g":    {Samples: 48, Horizon: 2, Gate: 0.5},
		"h3g":    {Samples: 48, Horizon: 3, Gate: 0.5},
		"g0s96":  {Samples: 96, Horizon: 1, Gate: 0.5},
		"h2g1":   {Samples: 48, Horizon: 2, Gate: 1},
		"g0t":    {Samples: 48, Horizon: 1, Gate: 0.5, exp: expFlags{tiles: true}},
	}
	for _, name := range []string{os.Getenv("EXP")} {
		cfg := configs[name]
		var wins atomic.Int64
		var wg sync.WaitGroup
		next := atomic.Int64{}
		start := time.Now()
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := next.Add(1) - 1
					if i >= int64(games) {
						return
					}
					s := newGame(t, players, variant, uint64(777000+i))
					bots := make([]game.Bot, players)
					for j := range bots {
						bots[j] = NewStrong(cfg)
					}
					if _, err := Play(s, bots, uint64(i)); err != nil {
						t.Error(err)
						return
					}
					if won, _ := s.Over(); won {
						wins.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		t.Logf("%s %s %dp: %d/%d = %.1f%% (%.0fs)", name, variant, players, wins.Load(), games, 100*float64(wins.Load())/float64(games), time.Since(start).Seconds())
	}
}
