package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game/sim"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/games/werewolf/wolfbot"
)

// simConfig is what `bivouac sim` was asked to do.
type simConfig struct {
	game     string
	players  int
	variant  string
	bot      string
	games    int
	seed     uint64
	json     bool
	workers  int
	samples  int
	timeCap  time.Duration
	progress string
	matrix   bool
	// --calibrate: the coach's chances against results.
	calibrate  bool
	piles      string
	levels     string
	pointsFile string
}

// simReport is the result of a sim run; --json prints it as is. The
// figures of one game only are in that game's part, so a Werewolves report
// carries nothing of The Grizzled and the reverse.
type simReport struct {
	Game    string `json:"game"`
	Players int    `json:"players"`
	Bot     string `json:"bot"`
	Seed    uint64 `json:"seed"`
	Workers int    `json:"workers"`
	Games   int    `json:"games"`
	// Wins counts the games WinsCount names: "team" for The Grizzled (the
	// soldiers, together), "village" for Werewolves.
	Wins        int     `json:"wins"`
	WinsCount   string  `json:"wins_count"`
	WinRate     float64 `json:"win_rate"`
	CILow       float64 `json:"ci_low"`  // 95% Wilson interval of win_rate
	CIHigh      float64 `json:"ci_high"` //
	MeanActions float64 `json:"mean_actions"`
	ElapsedSec  float64 `json:"elapsed_sec"`
	GamesPerSec float64 `json:"games_per_sec"`
	Interrupted bool    `json:"interrupted,omitempty"`

	// The Grizzled only; its fields sit at the top level of the JSON.
	*GrizzledFigures
	// Werewolf only: how games ended.
	Werewolf *wolfbot.SimResult `json:"werewolf,omitempty"`
}

// GrizzledFigures are the parts of a report only The Grizzled has.
type GrizzledFigures struct {
	Variant          string  `json:"variant"`
	MeanMissions     float64 `json:"mean_missions"`
	LossesHardKnocks int     `json:"losses_hard_knocks"`
	LossesMorale     int     `json:"losses_morale"`
}

// Player counts `bivouac sim` accepts, and each game's default.
const (
	grizzledMin, grizzledMax, grizzledDefault = 2, 5, 4
	werewolfMin, werewolfMax, werewolfDefault = 8, 18, 8
	werewolfMinSmall                          = 5 // the small-table mode, not in the rulebook
)

// runSim is `bivouac sim`: bot-only games in parallel, then statistics.
func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c simConfig
	fs.StringVar(&c.game, "game", "grizzled", "game to simulate: grizzled or werewolf")
	fs.IntVar(&c.players, "players", 0, "players at each table (grizzled: 2-5; werewolf: 8-18, or 5-7 in the small-table mode); 0: the game's default (4 for The Grizzled, 8 for Werewolves)")
	fs.StringVar(&c.variant, "variant", string(grizzled.Standard), "grizzled rules: standard, beginner or veteran")
	fs.StringVar(&c.bot, "bot", "easy", "bot level for every seat (grizzled: easy, strong; werewolf: easy, normal)")
	fs.IntVar(&c.games, "games", 1000, "number of games")
	fs.Uint64Var(&c.seed, "seed", 1, "seed; game i is seeded from it and i alone, so results do not depend on --workers")
	fs.BoolVar(&c.json, "json", false, "print one JSON object instead of text")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "games played at once")
	fs.IntVar(&c.samples, "samples", 0, "strong grizzled bot: determinizations per decision (0: the level's default)")
	fs.DurationVar(&c.timeCap, "time-cap", 0, "strong grizzled bot: time cap per decision (0: none, results reproducible)")
	fs.StringVar(&c.progress, "progress", "auto", "progress bar on stderr: auto (when stderr is a terminal), on or off")
	fs.BoolVar(&c.matrix, "matrix", false, fmt.Sprintf("The Grizzled on every variant × player count × bot level (--games a cell, %d by default), as a table", matrixGamesDefault))
	fs.BoolVar(&c.calibrate, "calibrate", false, fmt.Sprintf("The Grizzled's coach: play --games (%d by default) a trials pile and bot level, one seat following the hints, and set every chance shown against the results", calibrateGamesDefault))
	fs.StringVar(&c.piles, "piles", "", "--calibrate: the trials piles, of standard, veteran, campaign (default all)")
	fs.StringVar(&c.levels, "bots", "", "--calibrate: the bot levels beside the person, of easy, strong (default all)")
	fs.StringVar(&c.pointsFile, "points", "", "--calibrate: also write every chance shown to this file, one JSON object a line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: bivouac sim [--game grizzled|werewolf] [--players 4] [--variant standard] [--bot easy|strong] [--games 1000] [--seed 1] [--workers N] [--json]")
		fmt.Fprintln(stderr, "       "+matrixUsage)
		fmt.Fprintln(stderr, "       "+calibrateUsage)
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
	if c.matrix {
		for _, name := range []string{"game", "players", "variant", "bot"} {
			if given[name] {
				return fmt.Errorf("sim: --matrix plays every variant, player count and bot level of The Grizzled; --%s does not go with it", name)
			}
		}
		if !given["games"] {
			c.games = matrixGamesDefault
		}
	}
	if c.calibrate {
		for _, name := range []string{"game", "players", "variant", "bot", "matrix", "samples", "time-cap"} {
			if given[name] {
				return fmt.Errorf("sim: --calibrate plays every player count of The Grizzled with the coach's budget; --%s does not go with it", name)
			}
		}
		if !given["games"] {
			c.games = calibrateGamesDefault
		}
	} else {
		for _, name := range []string{"piles", "bots", "points"} {
			if given[name] {
				return fmt.Errorf("sim: --%s goes with --calibrate", name)
			}
		}
	}
	if c.games < 1 {
		return errors.New("sim: --games must be at least 1")
	}
	if err := c.checkPlayers(); err != nil {
		return err
	}
	if c.workers < 1 {
		return errors.New("sim: --workers must be at least 1")
	}
	var show bool
	switch c.progress {
	case "auto":
		show = isTerminal(stderr)
	case "on":
		show = true
	case "off":
	default:
		return fmt.Errorf("sim: --progress must be auto, on or off, not %q", c.progress)
	}
	if c.calibrate {
		return runCalibrate(ctx, c, stdout, stderr, show)
	}
	if c.matrix {
		rep, err := runMatrix(ctx, c, progressTo(stderr, show, c.games*len(matrixCells())))
		if err != nil {
			return err
		}
		if c.json {
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return err
			}
		} else {
			printMatrix(stdout, rep)
		}
		if rep.Interrupted {
			return fmt.Errorf("sim: matrix interrupted: %w", ctx.Err())
		}
		return nil
	}
	var (
		rep simReport
		err error
	)
	switch c.game {
	case "grizzled":
		rep, err = simGrizzled(ctx, c, progressTo(stderr, show, c.games))
	case "werewolf":
		rep, err = simWerewolf(ctx, c, progressTo(stderr, show, c.games))
	default:
		return fmt.Errorf("sim: unknown game %q (grizzled or werewolf)", c.game)
	}
	if err != nil {
		return err
	}
	if c.json {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printReport(stdout, rep)
	}
	if rep.Interrupted {
		return fmt.Errorf("sim: interrupted after %d games: %w", rep.Games, ctx.Err())
	}
	return nil
}

// checkPlayers fills in the game's default player count and refuses one
// the game cannot seat, saying what it can.
func (c *simConfig) checkPlayers() error {
	switch c.game {
	case "grizzled":
		if c.players == 0 {
			c.players = grizzledDefault
		}
		if c.players < grizzledMin || c.players > grizzledMax {
			return fmt.Errorf("sim: The Grizzled is for %d to %d players, not %d", grizzledMin, grizzledMax, c.players)
		}
	case "werewolf":
		if c.players == 0 {
			c.players = werewolfDefault
		}
		if c.players < werewolfMinSmall || c.players > werewolfMax {
			return fmt.Errorf("sim: Werewolves is for %d to %d players (%d to %d in the small-table mode, which is not in the rulebook), not %d",
				werewolfMin, werewolfMax, werewolfMinSmall, werewolfMin-1, c.players)
		}
	}
	return nil
}

// simGrizzled plays The Grizzled as c says and times it.
func simGrizzled(ctx context.Context, c simConfig, tick func(done int)) (simReport, error) {
	rep := simReport{Game: "grizzled", Players: c.players, Bot: c.bot, Seed: c.seed, Workers: c.workers,
		WinsCount: "team", GrizzledFigures: &GrizzledFigures{Variant: c.variant}}
	start := time.Now()
	r, err := grizzbot.Simulate(ctx, grizzbot.SimConfig{Players: c.players, Variant: grizzled.Variant(c.variant), Level: c.bot,
		Games: c.games, Seed: c.seed, Workers: c.workers, Samples: c.samples, TimeCap: c.timeCap, Clock: clock.System{}}, tick)
	if err != nil {
		return rep, fmt.Errorf("sim: %w", err)
	}
	rep.Games, rep.Wins, rep.Interrupted = r.Games, r.Wins, r.Interrupted
	rep.LossesHardKnocks, rep.LossesMorale = r.LossesHardKnocks, r.LossesMorale
	rep.finish(time.Since(start))
	if rep.Games > 0 {
		rep.MeanMissions = float64(r.Missions) / float64(rep.Games)
		rep.MeanActions = float64(r.Actions) / float64(rep.Games)
	}
	return rep, nil
}

// simWerewolf plays Werewolves as c says and times it.
func simWerewolf(ctx context.Context, c simConfig, tick func(done int)) (simReport, error) {
	rep := simReport{Game: "werewolf", Players: c.players, Bot: c.bot, Seed: c.seed, Workers: c.workers, WinsCount: "village"}
	start := time.Now()
	sum, interrupted, err := wolfbot.SimulateBatch(ctx, c.players, c.games, c.seed, c.bot, c.workers, tick)
	if err != nil {
		return rep, fmt.Errorf("sim: werewolf: %w", err)
	}
	elapsed := time.Since(start)
	sum.Elapsed = elapsed
	if s := elapsed.Seconds(); s > 0 {
		sum.GamesPerSec = float64(sum.Games) / s
	}
	rep.Games, rep.Wins, rep.Interrupted = sum.Games, sum.Village, interrupted
	if sum.Games > 0 {
		rep.MeanActions = float64(sum.Actions) / float64(sum.Games)
	}
	rep.finish(elapsed)
	rep.Werewolf = &sum
	return rep, nil
}

// finish fills the rates from the counts.
func (r *simReport) finish(elapsed time.Duration) {
	r.ElapsedSec = elapsed.Seconds()
	if r.ElapsedSec > 0 {
		r.GamesPerSec = float64(r.Games) / r.ElapsedSec
	}
	if r.Games > 0 {
		r.WinRate = float64(r.Wins) / float64(r.Games)
	}
	r.CILow, r.CIHigh = sim.Wilson(r.Wins, r.Games)
}

func printReport(w io.Writer, r simReport) {
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	switch r.Game {
	case "werewolf":
		ww := r.Werewolf
		fmt.Fprintf(w, "Werewolves: %d games, %d players, %s bots (seed %d, %d workers)\n", r.Games, r.Players, r.Bot, r.Seed, r.Workers)
		fmt.Fprintf(w, "village wins: %d (%s, 95%% CI %s to %s)\n", r.Wins, pct(r.WinRate), pct(r.CILow), pct(r.CIHigh))
		fmt.Fprintf(w, "wolves %d, lovers %d, no winner %d, stalemate %d, unfinished %d\n", ww.Wolves, ww.Lovers, ww.NoWinner, ww.Stalemate, ww.Unfinished)
		fmt.Fprintf(w, "mean actions per game: %.1f\n", r.MeanActions)
	default:
		fmt.Fprintf(w, "The Grizzled: %d games, %d players, %s rules, %s bots (seed %d, %d workers)\n", r.Games, r.Players, r.Variant, r.Bot, r.Seed, r.Workers)
		fmt.Fprintf(w, "wins: %d (%s, 95%% CI %s to %s)\n", r.Wins, pct(r.WinRate), pct(r.CILow), pct(r.CIHigh))
		fmt.Fprintf(w, "losses: %d to hard knocks, %d to morale\n", r.LossesHardKnocks, r.LossesMorale)
		fmt.Fprintf(w, "mean missions per game: %.2f; mean actions per game: %.1f\n", r.MeanMissions, r.MeanActions)
	}
	fmt.Fprintf(w, "speed: %.1f games/s (%.1f s)\n", r.GamesPerSec, r.ElapsedSec)
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures cover the games that finished")
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressTo returns a tick function that redraws a progress bar on w at
// most ten times a second; tick(-1) ends the bar. Without show it does nothing.
func progressTo(w io.Writer, show bool, total int) func(done int) {
	if !show {
		return func(int) {}
	}
	var mu sync.Mutex
	start := time.Now()
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
		now := time.Now()
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
