package simcmd

import (
	"context"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/bivouac-ssh/bivouac/game/sim"
)

// The win-rate matrix (`bivouac sim --matrix`): a game played by bots on
// every cell of its matrix (sim.Matrix; else every player count by every
// bot level), each cell on the same fixed seeds, so a table such as
// docs/WINRATES.md's can be made again exactly.

// MatrixGamesDefault is a cell's games when --games is not given: enough
// for an interval of about ±7 points.
const MatrixGamesDefault = 200

// MatrixReport is what --matrix --json prints.
type MatrixReport struct {
	Game        string       `json:"game"`
	Title       string       `json:"-"`
	Seed        uint64       `json:"seed"`
	Games       int          `json:"games_per_cell"`
	Workers     int          `json:"workers"`
	GoMaxProcs  int          `json:"gomaxprocs"`
	ElapsedSec  float64      `json:"elapsed_sec"`
	Cells       []sim.Report `json:"cells"`
	Interrupted bool         `json:"interrupted,omitempty"`
}

// cells are g's matrix in print order.
func cells(g Game) []sim.Cell {
	if m, ok := g.Sim.(sim.Matrix); ok {
		return m.Cells()
	}
	var out []sim.Cell
	for p := g.Min; p <= g.Max; p++ {
		for _, level := range g.Levels {
			out = append(out, sim.Cell{Players: p, Bot: level})
		}
	}
	return out
}

// cellSettings are the settings g's matrix sets in its cells, in the
// order of g's settings: a matrix's columns, which no flag may narrow.
func cellSettings(g Game) []string {
	set := map[string]bool{}
	for _, c := range cells(g) {
		for name := range maps.Keys(c.Settings) {
			set[name] = true
		}
	}
	var out []string
	for _, s := range g.Sim.Settings() {
		if set[s.Name] {
			out = append(out, s.Name)
		}
	}
	return out
}

// runMatrix plays every cell with c's games, seed, workers and settings,
// then prints the table.
func runMatrix(ctx context.Context, c config, stdout, stderr io.Writer) error {
	all := cells(c.game)
	tick := Progress(stderr, c.progress, c.Games*len(all), c.Clock)
	rep := MatrixReport{Game: c.game.ID, Title: c.game.Title, Seed: c.Seed, Games: c.Games, Workers: c.Workers, GoMaxProcs: runtime.GOMAXPROCS(0)}
	start := c.Clock.Now()
	base := 0
	for _, cell := range all {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		cc := c
		cc.Players, cc.Bot = cell.Players, cell.Bot
		cc.Settings = maps.Clone(c.Settings)
		maps.Copy(cc.Settings, cell.Settings)
		if err := cc.check(); err != nil {
			return err
		}
		r, err := play(ctx, cc, func(done int) {
			if done >= 0 {
				tick(base + done)
			}
		})
		if err != nil {
			return err
		}
		rep.Cells = append(rep.Cells, r)
		rep.Interrupted = rep.Interrupted || r.Interrupted
		base += c.Games
	}
	tick(-1)
	rep.ElapsedSec = c.Clock.Now().Sub(start).Seconds()
	if err := write(stdout, c.json, rep, func(w io.Writer, r MatrixReport) { printMatrix(w, r, cellSettings(c.game)) }); err != nil {
		return err
	}
	if rep.Interrupted {
		return fmt.Errorf("sim: matrix interrupted: %w", ctx.Err())
	}
	return nil
}

// printMatrix writes the matrix as an aligned table, one row a cell: the
// settings its cells set, players, bots, the win rate, the game's own
// figures and the speed.
func printMatrix(w io.Writer, r MatrixReport, settings []string) {
	fmt.Fprintf(w, "%s, bots on every seat: %d games a cell, seed %d, %d workers (%.0f s)\n\n", r.Title, r.Games, r.Seed, r.Workers, r.ElapsedSec)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, c := range r.Cells {
		var cols []sim.Column
		if c.Figures != nil {
			cols = c.Figures.Columns()
		}
		if i == 0 {
			head := slices.Clone(settings)
			head = append(head, "players", "bot", "wins", "win rate", "95% interval")
			for _, col := range cols {
				head = append(head, col.Head)
			}
			fmt.Fprintln(tw, strings.Join(append(head, "games/s"), "\t"))
		}
		var row []string
		for _, s := range settings {
			row = append(row, c.Settings[s])
		}
		row = append(row, fmt.Sprint(c.Players), c.Bot, fmt.Sprintf("%d/%d", c.Wins, c.Games), fmt.Sprintf("%.1f%%", 100*c.WinRate),
			fmt.Sprintf("%.1f–%.1f%%", 100*c.CILow, 100*c.CIHigh))
		for _, col := range cols {
			row = append(row, col.Value)
		}
		fmt.Fprintln(tw, strings.Join(append(row, fmt.Sprintf("%.1f", c.GamesPerSec)), "\t"))
	}
	tw.Flush()
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures cover the games that finished")
	}
}
