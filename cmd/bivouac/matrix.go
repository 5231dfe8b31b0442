package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
)

// The win-rate matrix (`bivouac sim --matrix`): The Grizzled played by
// bots on every variant × player count × bot level, each cell on the same
// fixed seeds, so a table in docs/WINRATES.md can be made again exactly.

// matrixReport is what --matrix --json prints.
type matrixReport struct {
	Game        string      `json:"game"`
	Seed        uint64      `json:"seed"`
	Games       int         `json:"games_per_cell"`
	Workers     int         `json:"workers"`
	GoMaxProcs  int         `json:"gomaxprocs"`
	ElapsedSec  float64     `json:"elapsed_sec"`
	Cells       []simReport `json:"cells"`
	Interrupted bool        `json:"interrupted,omitempty"`
}

// matrixGamesDefault is a cell's games when --games is not given: enough
// for an interval of about ±7 points.
const matrixGamesDefault = 200

// matrixCells are the cells in print order (grizzbot.MatrixCells).
func matrixCells() []simConfig {
	var cells []simConfig
	for _, c := range grizzbot.MatrixCells() {
		cells = append(cells, simConfig{game: "grizzled", variant: string(c.Variant), players: c.Players, bot: c.Level})
	}
	return cells
}

// runMatrix plays every cell with c's games, seed, workers and strong-bot
// settings; tick reports games done over all cells.
func runMatrix(ctx context.Context, c simConfig, tick func(done int)) (matrixReport, error) {
	rep := matrixReport{Game: "grizzled", Seed: c.seed, Games: c.games, Workers: c.workers, GoMaxProcs: runtime.GOMAXPROCS(0)}
	start := time.Now()
	base := 0
	for _, cell := range matrixCells() {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		cc := c
		cc.variant, cc.players, cc.bot = cell.variant, cell.players, cell.bot
		r, err := simGrizzled(ctx, cc, func(done int) {
			if done >= 0 {
				tick(base + done)
			}
		})
		if err != nil {
			return rep, err
		}
		rep.Cells = append(rep.Cells, r)
		rep.Interrupted = rep.Interrupted || r.Interrupted
		base += c.games
	}
	tick(-1)
	rep.ElapsedSec = time.Since(start).Seconds()
	return rep, nil
}

// printMatrix writes the matrix as an aligned table, one row a cell.
func printMatrix(w io.Writer, r matrixReport) {
	fmt.Fprintf(w, "The Grizzled, bots on every seat: %d games a cell, seed %d, %d workers (%.0f s)\n\n", r.Games, r.Seed, r.Workers, r.ElapsedSec)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "variant\tplayers\tbot\twins\twin rate\t95% interval\tmissions\tgames/s")
	for _, c := range r.Cells {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d/%d\t%.1f%%\t%.1f–%.1f%%\t%.2f\t%.1f\n", c.Variant, c.Players, c.Bot, c.Wins, c.Games,
			100*c.WinRate, 100*c.CILow, 100*c.CIHigh, c.MeanMissions, c.GamesPerSec)
	}
	tw.Flush()
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures cover the games that finished")
	}
}

// matrixUsage is how --matrix is asked for, in the usage text.
var matrixUsage = strings.TrimSpace(`
bivouac sim --matrix [--games 200] [--seed 1] [--workers N] [--json]: every variant × player count × bot level of The Grizzled`)
