package wolfbot

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
)

func TestSimulateEveryTableSize(t *testing.T) {
	games := 40
	if raceEnabled || testing.Short() {
		games = 6
	}
	for _, lvl := range []string{Easy, Normal} {
		for n := 5; n <= 18; n++ {
			r := Simulate(n, games, uint64(n), lvl)
			if r.Err != "" || r.Unfinished > 0 || r.Games != games {
				t.Fatalf("%v: %s", r, r.Err)
			}
			if r.Village+r.Wolves+r.Lovers+r.NoWinner+r.Stalemate != games {
				t.Fatalf("outcomes do not add up: %v", r)
			}
			t.Log(r)
		}
	}
}

func TestBotsLevels(t *testing.T) {
	var b game.Bots = Bots{}
	if got := b.Levels(); len(got) != 2 || got[0] != Easy {
		t.Fatalf("levels %v", got)
	}
	if _, err := b.New("grandmaster"); err == nil {
		t.Fatal("unknown level accepted")
	}
	bot, _ := b.New(Normal)
	if _, ok := bot.Act("not a view", 1); ok {
		t.Fatal("acted on a foreign view")
	}
	s, _, _ := werewolf.NewState([]string{"a", "b", "c", "d", "e", "f", "g", "h"}, werewolf.DefaultOptions(), 1)
	v := s.View(0)
	if _, ok := bot.Act(&v, 1); ok {
		t.Fatal("acted with nothing to do at nightfall")
	}
}
