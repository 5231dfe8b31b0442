// Package simcmd is `bivouac sim` as a command, whatever the game: its
// flags to a sim.Config, a batch of any registered game through its
// simulation ability, the report in text or JSON, the win-rate matrix and
// the progress bar. It names no game: the caller lists them.
package simcmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/game/sim"
)

// Game is a game as `bivouac sim` plays it.
type Game struct {
	ID, Title string
	// Players is how many may sit at its tables, and the default.
	Min, Max, Default int
	Levels            []string // its bot levels, fastest first (the first is the default)
	Sim               sim.Simulator
}

// config is what `bivouac sim` was asked to do.
type config struct {
	sim.Config
	game     Game
	json     bool
	progress bool
	matrix   bool
}

// Run is `bivouac sim`: bot-only games of one of games (the first by
// default) in parallel, then statistics; clk times them.
func Run(ctx context.Context, games []Game, args []string, stdout, stderr io.Writer, clk sim.Clock) error {
	games = slices.DeleteFunc(slices.Clone(games), func(g Game) bool { return g.Sim == nil })
	if len(games) == 0 {
		return errors.New("sim: no game has bots")
	}
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		c                 config
		id, bot, progress string
	)
	c.Clock = clk
	fs.StringVar(&id, "game", games[0].ID, "game to simulate: "+orList(ids(games)))
	fs.IntVar(&c.Players, "players", 0, "players at each table; 0: the game's default ("+defaults(games)+")")
	fs.StringVar(&bot, "bot", "", "bot level for every seat ("+levels(games)+"); empty: the game's first")
	fs.IntVar(&c.Games, "games", 1000, "number of games")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed; game i is seeded from it and i alone, so results do not depend on --workers")
	fs.BoolVar(&c.json, "json", false, "print one JSON object instead of text")
	fs.IntVar(&c.Workers, "workers", runtime.GOMAXPROCS(0), "games played at once")
	fs.StringVar(&progress, "progress", "auto", "progress bar on stderr: auto (when stderr is a terminal), on or off")
	fs.BoolVar(&c.matrix, "matrix", false, fmt.Sprintf("every cell of the game's win-rate matrix (--games a cell, %d by default), as a table", MatrixGamesDefault))
	own := map[string]*string{} // every game's settings, each a flag once
	for _, g := range games {
		for _, s := range g.Sim.Settings() {
			if own[s.Name] == nil {
				own[s.Name] = fs.String(s.Name, s.Default, g.ID+": "+s.Usage)
			}
		}
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: bivouac sim [--game "+strings.Join(ids(games), "|")+"] [--players N] [--bot LEVEL] [--games 1000] [--seed 1] [--workers N] [--json]")
		fmt.Fprintln(stderr, "       bivouac sim --matrix [--game ID] [--games 200] [--seed 1] [--workers N] [--json]: the game's win-rate matrix")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sim: unexpected argument %q", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	i := slices.IndexFunc(games, func(g Game) bool { return g.ID == id })
	if i < 0 {
		return fmt.Errorf("sim: unknown game %q (%s)", id, orList(ids(games)))
	}
	c.game = games[i]
	c.Settings = map[string]string{}
	for _, s := range c.game.Sim.Settings() {
		if given[s.Name] {
			c.Settings[s.Name] = *own[s.Name]
		}
	}
	for name := range own {
		if given[name] && !hasSetting(c.game.Sim, name) {
			return fmt.Errorf("sim: --%s is not a setting of %s", name, c.game.Title)
		}
	}
	if c.matrix {
		for _, name := range append([]string{"players", "bot"}, cellSettings(c.game)...) {
			if given[name] {
				return fmt.Errorf("sim: --matrix plays every cell of %s's matrix; --%s does not go with it", c.game.Title, name)
			}
		}
		if !given["games"] {
			c.Games = MatrixGamesDefault
		}
	}
	if c.Games < 1 {
		return errors.New("sim: --games must be at least 1")
	}
	if c.Workers < 1 {
		return errors.New("sim: --workers must be at least 1")
	}
	switch progress {
	case "auto":
		c.progress = IsTerminal(stderr)
	case "on":
		c.progress = true
	case "off":
	default:
		return fmt.Errorf("sim: --progress must be auto, on or off, not %q", progress)
	}
	if c.matrix {
		return runMatrix(ctx, c, stdout, stderr)
	}
	c.Bot = orDefault(bot, c.game.Levels[0])
	if c.Players == 0 {
		c.Players = c.game.Default
	}
	if err := c.check(); err != nil {
		return err
	}
	rep, err := play(ctx, c, Progress(stderr, c.progress, c.Games, clk))
	if err != nil {
		return err
	}
	if err := write(stdout, c.json, rep, printReport); err != nil {
		return err
	}
	if rep.Interrupted {
		return fmt.Errorf("sim: interrupted after %d games: %w", rep.Games, ctx.Err())
	}
	return nil
}

// check refuses a batch the game cannot play: in the game's own words
// first, then for a player count outside its tables'.
func (c config) check() error {
	if err := c.game.Sim.Check(c.Config); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	if c.Players < c.game.Min || c.Players > c.game.Max {
		return fmt.Errorf("sim: %s is for %d to %d players, not %d", c.game.Title, c.game.Min, c.game.Max, c.Players)
	}
	return nil
}

// play plays one batch as c says and times it.
func play(ctx context.Context, c config, tick func(done int)) (sim.Report, error) {
	start := c.Clock.Now()
	o, err := c.game.Sim.Simulate(ctx, c.Config, tick)
	if err != nil {
		return sim.Report{}, fmt.Errorf("sim: %s: %w", c.game.ID, err)
	}
	return sim.NewReport(c.game.ID, c.game.Title, c.Config, o, c.Clock.Now().Sub(start)), nil
}

// printReport writes a batch's report for people.
func printReport(w io.Writer, r sim.Report) {
	if r.Figures != nil {
		r.Figures.WriteReport(w, r)
	} else {
		fmt.Fprintf(w, "%s: %d games, %d players, %s bots (seed %d, %d workers)\n", r.Title, r.Games, r.Players, r.Bot, r.Seed, r.Workers)
		fmt.Fprintf(w, "%s wins: %d (%s, 95%% CI %s to %s)\n", r.WinsCount, r.Wins, sim.Pct(r.WinRate), sim.Pct(r.CILow), sim.Pct(r.CIHigh))
	}
	fmt.Fprintf(w, "speed: %.1f games/s (%.1f s)\n", r.GamesPerSec, r.ElapsedSec)
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures cover the games that finished")
	}
}

// write prints v as one line of JSON, or for people with text.
func write[T any](w io.Writer, asJSON bool, v T, text func(io.Writer, T)) error {
	if asJSON {
		return json.NewEncoder(w).Encode(v)
	}
	text(w, v)
	return nil
}

func hasSetting(s sim.Simulator, name string) bool {
	return slices.ContainsFunc(s.Settings(), func(x sim.Setting) bool { return x.Name == name })
}

func ids(games []Game) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

// defaults says each game's default player count: "4 for grizzled, 8 for werewolf".
func defaults(games []Game) string {
	var out []string
	for _, g := range games {
		out = append(out, fmt.Sprintf("%d for %s (%d-%d)", g.Default, g.ID, g.Min, g.Max))
	}
	return strings.Join(out, ", ")
}

// levels says each game's bot levels: "grizzled: easy, strong; werewolf: easy, normal".
func levels(games []Game) string {
	var out []string
	for _, g := range games {
		out = append(out, g.ID+": "+strings.Join(g.Levels, ", "))
	}
	return strings.Join(out, "; ")
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// isTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Progress returns a tick function that redraws a progress bar on w at
// most ten times a second, by clk; tick(-1) ends the bar. Without show it
// does nothing.
func Progress(w io.Writer, show bool, total int, clk sim.Clock) func(done int) {
	if !show {
		return func(int) {}
	}
	var mu sync.Mutex
	start := clk.Now()
	var last time.Time
	drawn := false
	return func(done int) {
		mu.Lock()
		defer mu.Unlock()
		if done < 0 {
			if drawn {
				fmt.Fprint(w, "\r\033[K")
			}
			return
		}
		now := clk.Now()
		if done < total && now.Sub(last) < 100*time.Millisecond {
			return
		}
		last, drawn = now, true
		const width = 30
		fill := width * done / max(total, 1)
		rate := float64(done) / max(now.Sub(start).Seconds(), 1e-9)
		eta := ""
		if rate > 0 && done < total {
			eta = fmt.Sprintf(", %s left", time.Duration(float64(total-done)/rate*float64(time.Second)).Round(time.Second))
		}
		fmt.Fprintf(w, "\r[%s%s] %d/%d games, %.1f/s%s\033[K", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total, rate, eta)
	}
}
