package grizzbot

import (
	"context"
	"fmt"
	"strings"
	"testing"

	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// A batch's games depend on its seed and not on how many workers play
// them, and every game ends in a win or one of the two losses.
func TestSimulateSameWhateverTheWorkers(t *testing.T) {
	c := SimConfig{Players: 4, Variant: g.Standard, Level: LevelEasy, Games: 40, Seed: 3, Workers: 3}
	many, err := Simulate(context.Background(), c, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	c.Workers = 1
	one, err := Simulate(context.Background(), c, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	if many != one {
		t.Errorf("3 workers: %+v; 1 worker: %+v", many, one)
	}
	if many.Games != 40 || many.Wins+many.LossesHardKnocks+many.LossesMorale != 40 || many.Interrupted {
		t.Errorf("outcomes do not add up to the games: %+v", many)
	}
	if many.Missions < many.Games || many.Actions < many.Missions {
		t.Errorf("missions %d and actions %d for %d games", many.Missions, many.Actions, many.Games)
	}
	c.Seed = 4
	if other, _ := Simulate(context.Background(), c, func(int) {}); other == one {
		t.Errorf("seeds 3 and 4 played the same games: %+v", other)
	}
}

func TestSimulateStrongWithItsBudget(t *testing.T) {
	c := SimConfig{Players: 3, Variant: g.Veteran, Level: LevelStrong, Games: 2, Seed: 1, Workers: 2, Samples: 2}
	r, err := Simulate(context.Background(), c, func(int) {})
	if err != nil || r.Games != 2 {
		t.Fatalf("%+v, %v", r, err)
	}
}

func TestSimulateRefusesWhatItCannotPlay(t *testing.T) {
	for _, c := range []SimConfig{
		{Players: 4, Variant: "expert", Level: LevelEasy, Games: 1, Workers: 1},
		{Players: 4, Variant: g.Standard, Level: "grandmaster", Games: 1, Workers: 1},
	} {
		if _, err := Simulate(context.Background(), c, func(int) {}); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestSimulateStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Simulate(ctx, SimConfig{Players: 2, Variant: g.Standard, Level: LevelEasy, Games: 5, Workers: 1}, func(int) {})
	if err != nil || !r.Interrupted || r.Games != 0 {
		t.Errorf("a cancelled batch: %+v, %v", r, err)
	}
}

// The matrix covers every variant, player count and level once.
func TestMatrixCells(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range MatrixCells() {
		key := fmt.Sprintf("%s/%d/%s", c.Variant, c.Players, c.Level)
		if seen[key] {
			t.Errorf("cell %s twice", key)
		}
		seen[key] = true
	}
	if len(seen) != 3*4*len((Bots{}).Levels()) {
		t.Errorf("%d cells", len(seen))
	}
}
