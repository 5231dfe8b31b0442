package grizzbot

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game/sim"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// Simulation is The Grizzled's simulation ability (sim.Simulator and
// sim.Matrix): batches with a variant's rules, the strong bot's budget
// as settings, and why games were lost.
type Simulation struct{}

var variants = []g.Variant{g.Standard, g.Beginner, g.Veteran}

func (Simulation) Settings() []sim.Setting {
	return []sim.Setting{
		{Name: "variant", Default: string(g.Standard), Usage: "the rules: standard, beginner or veteran"},
		{Name: "samples", Default: "0", Usage: "strong bot: determinizations per decision (0: the level's default)"},
		{Name: "time-cap", Default: "0s", Usage: "strong bot: time cap per decision (0: none, results reproducible)"},
	}
}

func (s Simulation) Check(c sim.Config) error {
	_, err := s.config(c)
	return err
}

// config is c as Simulate takes it, or why it cannot be played.
func (s Simulation) config(c sim.Config) (SimConfig, error) {
	out := SimConfig{Players: c.Players, Level: c.Bot, Games: c.Games, Seed: c.Seed, Workers: c.Workers, Clock: c.Clock,
		Variant: g.Variant(c.Setting(s.Settings(), "variant"))}
	if c.Players < 2 || c.Players > 5 {
		return out, fmt.Errorf("a table of The Grizzled is for 2 to 5 players, not %d", c.Players)
	}
	if !slices.Contains(variants, out.Variant) {
		return out, fmt.Errorf("no variant %q in The Grizzled (standard, beginner or veteran)", out.Variant)
	}
	if !slices.Contains((Bots{}).Levels(), c.Bot) {
		return out, fmt.Errorf("no bot %q in The Grizzled (%s)", c.Bot, strings.Join((Bots{}).Levels(), ", "))
	}
	var err error
	if out.Samples, err = strconv.Atoi(c.Setting(s.Settings(), "samples")); err != nil || out.Samples < 0 {
		return out, fmt.Errorf("--samples must be a number, 0 or more, not %q", c.Settings["samples"])
	}
	if out.TimeCap, err = time.ParseDuration(c.Setting(s.Settings(), "time-cap")); err != nil || out.TimeCap < 0 {
		return out, fmt.Errorf("--time-cap must be a duration such as 200ms, not %q", c.Settings["time-cap"])
	}
	return out, nil
}

func (s Simulation) Simulate(ctx context.Context, c sim.Config, tick func(done int)) (sim.Outcome, error) {
	sc, err := s.config(c)
	if err != nil {
		return sim.Outcome{}, err
	}
	r, err := Simulate(ctx, sc, tick)
	if err != nil {
		return sim.Outcome{}, err
	}
	f := &Figures{Variant: string(sc.Variant), LossesHardKnocks: r.LossesHardKnocks, LossesMorale: r.LossesMorale}
	if r.Games > 0 {
		f.MeanMissions = float64(r.Missions) / float64(r.Games)
	}
	return sim.Outcome{Games: r.Games, Wins: r.Wins, WinsCount: "team", Actions: r.Actions, Interrupted: r.Interrupted, Figures: f}, nil
}

// Cells are the win-rate matrix of docs/WINRATES.md: every variant by
// player count by bot level (MatrixCells).
func (Simulation) Cells() []sim.Cell {
	var out []sim.Cell
	for _, c := range MatrixCells() {
		out = append(out, sim.Cell{Players: c.Players, Bot: c.Level, Settings: map[string]string{"variant": string(c.Variant)}})
	}
	return out
}

// Figures are what a Grizzled batch adds to its report: the variant, and
// how long games lasted and why they were lost.
type Figures struct {
	Variant          string  `json:"variant"`
	MeanMissions     float64 `json:"mean_missions"`
	LossesHardKnocks int     `json:"losses_hard_knocks"`
	LossesMorale     int     `json:"losses_morale"`
}

func (f *Figures) WriteReport(w io.Writer, r sim.Report) {
	fmt.Fprintf(w, "The Grizzled: %d games, %d players, %s rules, %s bots (seed %d, %d workers)\n", r.Games, r.Players, f.Variant, r.Bot, r.Seed, r.Workers)
	fmt.Fprintf(w, "wins: %d (%s, 95%% CI %s to %s)\n", r.Wins, sim.Pct(r.WinRate), sim.Pct(r.CILow), sim.Pct(r.CIHigh))
	fmt.Fprintf(w, "losses: %d to hard knocks, %d to morale\n", f.LossesHardKnocks, f.LossesMorale)
	fmt.Fprintf(w, "mean missions per game: %.2f; mean actions per game: %.1f\n", f.MeanMissions, r.MeanActions)
}

func (f *Figures) Columns() []sim.Column {
	return []sim.Column{{Head: "missions", Value: fmt.Sprintf("%.2f", f.MeanMissions)}}
}
