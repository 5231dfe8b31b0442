package wolfbot

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/game/sim"
)

// Simulation is the Werewolves' simulation ability (sim.Simulator):
// batches with SimOptions' cards, and how games ended.
type Simulation struct{}

// Player counts a batch may seat: the rulebook's, and the small-table
// mode's below it.
const (
	simMin, simMax, simMinSmall = 8, 18, 5
)

func (Simulation) Settings() []sim.Setting { return nil }

func (Simulation) Check(c sim.Config) error {
	if c.Players < simMinSmall || c.Players > simMax {
		return fmt.Errorf("a table of Werewolves is for %d to %d players (%d to %d in the small-table mode, which is not in the rulebook), not %d",
			simMin, simMax, simMinSmall, simMin-1, c.Players)
	}
	if levels := (Bots{}).Levels(); !slices.Contains(levels, c.Bot) {
		return fmt.Errorf("no bot %q in Werewolves (%s)", c.Bot, strings.Join(levels, ", "))
	}
	return nil
}

func (s Simulation) Simulate(ctx context.Context, c sim.Config, tick func(done int)) (sim.Outcome, error) {
	if err := s.Check(c); err != nil {
		return sim.Outcome{}, err
	}
	sum, interrupted, err := SimulateBatch(ctx, c.Players, c.Games, c.Seed, c.Bot, c.Workers, tick)
	if err != nil {
		return sim.Outcome{}, err
	}
	return sim.Outcome{Games: sum.Games, Wins: sum.Village, WinsCount: "village", Actions: sum.Actions, Interrupted: interrupted,
		Figures: &Figures{Werewolf: sum}}, nil
}

// Figures are what a Werewolves batch adds to its report: how its games
// ended, under "werewolf".
type Figures struct {
	Werewolf SimResult `json:"werewolf"`
}

func (f *Figures) WriteReport(w io.Writer, r sim.Report) {
	ww := f.Werewolf
	fmt.Fprintf(w, "Werewolves: %d games, %d players, %s bots (seed %d, %d workers)\n", r.Games, r.Players, r.Bot, r.Seed, r.Workers)
	fmt.Fprintf(w, "village wins: %d (%s, 95%% CI %s to %s)\n", r.Wins, sim.Pct(r.WinRate), sim.Pct(r.CILow), sim.Pct(r.CIHigh))
	fmt.Fprintf(w, "wolves %d, lovers %d, no winner %d, stalemate %d, unfinished %d\n", ww.Wolves, ww.Lovers, ww.NoWinner, ww.Stalemate, ww.Unfinished)
	fmt.Fprintf(w, "mean actions per game: %.1f\n", r.MeanActions)
}

func (f *Figures) Columns() []sim.Column {
	ww := f.Werewolf
	return []sim.Column{{Head: "wolves", Value: fmt.Sprint(ww.Wolves)}, {Head: "lovers", Value: fmt.Sprint(ww.Lovers)},
		{Head: "unfinished", Value: fmt.Sprint(ww.Unfinished)}}
}
