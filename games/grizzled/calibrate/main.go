// Command calibrate sets the chances The Grizzled's coach shows against
// how games end: games in which one person follows the coach's hints (now
// and then, on purpose, not) beside bots of each level, on each trials
// pile; every chance shown is set against the game's end, by decile.
// docs/COACH.md has the table it prints.
//
//	go run ./games/grizzled/calibrate [--games 400] [--piles standard,veteran,campaign] [--bots easy,strong] [--seed 1] [--points FILE] [--json]
//	go run ./games/grizzled/calibrate --from FILE,FILE... [--json]
//
// The second form plays nothing: it prints the table of the chances that
// runs kept with --points, several runs (other seeds, more games of one
// pile) pooled into one table.
//
// It is a tool for whoever tunes the coach's estimator, not a simulation
// every game has, so it lives in the game's folder rather than in
// `bivouac sim`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bivouac-ssh/bivouac/game/sim/simcmd"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "calibrate:", err)
		}
		os.Exit(1)
	}
}

// config is what a calibration was asked to do.
type config struct {
	games, workers            int
	seed                      uint64
	json                      bool
	piles, levels, pointsFile string
	from                      string
}

// wallClock tells the time for the progress bar and the elapsed seconds.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// run parses the flags and calibrates.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var progress string
	fs.IntVar(&c.games, "games", calibrateGamesDefault, "games a trials pile and bot level")
	fs.Uint64Var(&c.seed, "seed", 1, "seed; game i of a batch is seeded from it and i alone")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "games played at once")
	fs.BoolVar(&c.json, "json", false, "print one JSON object instead of text")
	fs.StringVar(&c.piles, "piles", "", "the trials piles, of standard, veteran, campaign (default all)")
	fs.StringVar(&c.levels, "bots", "", "the bot levels beside the person, of easy, strong (default all)")
	fs.StringVar(&c.pointsFile, "points", "", "also write every chance shown to this file, one JSON object a line")
	fs.StringVar(&c.from, "from", "", "play nothing: print the table of the chances these files (of --points, comma-separated) kept")
	fs.StringVar(&progress, "progress", "auto", "progress bar on stderr: auto (when stderr is a terminal), on or off")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.games < 1 || c.workers < 1 {
		return errors.New("--games and --workers must be at least 1")
	}
	if progress != "on" && progress != "off" && progress != "auto" {
		return fmt.Errorf("--progress must be auto, on or off, not %q", progress)
	}
	if c.from != "" {
		return pooled(c, stdout)
	}
	show := progress == "on" || progress == "auto" && simcmd.IsTerminal(stderr)
	return calibrate(ctx, c, stdout, stderr, show)
}

// calibrateGamesDefault is a batch's games (a pile × a bot level) when
// --games is not given.
const calibrateGamesDefault = 400

// calibrationGoal is how far (in points) a decile with calibrationCount
// chances or more may be from what its games did.
const (
	calibrationGoal  = 0.07
	calibrationCount = 100
)

// calibrateReport is what --json prints.
type calibrateReport struct {
	From        []string         `json:"from,omitempty"` // the points files of a pooled table
	Seed        uint64           `json:"seed"`
	Games       int              `json:"games_per_batch"`
	Workers     int              `json:"workers"`
	ElapsedSec  float64          `json:"elapsed_sec"`
	Batches     []calibrateBatch `json:"batches"`
	Interrupted bool             `json:"interrupted,omitempty"`
}

// calibrateBatch is one pile's figures: with one bot level, or with both
// ("all").
type calibrateBatch struct {
	Pile    string            `json:"pile"`
	Bots    string            `json:"bots"`
	Games   int               `json:"games"`
	Wins    int               `json:"wins"`
	Points  int               `json:"points"`
	Brier   float64           `json:"brier"`
	Base    float64           `json:"brier_base_rate"` // the Brier score of always saying the win rate
	Deciles []grizzbot.Decile `json:"deciles"`
	Worst   float64           `json:"worst_gap"` // the largest |predicted − observed| of a decile with calibrationCount points
	points  []grizzbot.CalibrationPoint
}

// calibrate plays every pile × bot level of c and prints the table.
func calibrate(ctx context.Context, c config, stdout, stderr io.Writer, show bool) error {
	piles, err := listOf(c.piles, grizzbot.Piles)
	if err != nil {
		return fmt.Errorf("--piles: %w", err)
	}
	levels, err := listOf(c.levels, (grizzbot.Bots{}).Levels())
	if err != nil {
		return fmt.Errorf("--bots: %w", err)
	}
	var dump *json.Encoder
	if c.pointsFile != "" {
		f, err := os.Create(c.pointsFile)
		if err != nil {
			return fmt.Errorf("%w", err)
		}
		defer f.Close()
		dump = json.NewEncoder(f)
	}
	rep := calibrateReport{Seed: c.seed, Games: c.games, Workers: c.workers}
	start := time.Now()
	tick := simcmd.Progress(stderr, show, c.games*len(piles)*len(levels), wallClock{})
	base := 0
	for _, pile := range piles {
		all := calibrateBatch{Pile: string(pile), Bots: "all"}
		for _, level := range levels {
			r, err := grizzbot.Calibrate(ctx, grizzbot.CalibrationConfig{Pile: pile, Level: level, Games: c.games, Seed: c.seed,
				Workers: c.workers}, func(done int) {
				if done >= 0 {
					tick(base + done)
				}
			})
			if err != nil {
				return fmt.Errorf("%w", err)
			}
			base += c.games
			rep.Interrupted = rep.Interrupted || r.Interrupted
			b := batchOf(string(pile), level, r.Games, r.Wins, r.Points)
			rep.Batches = append(rep.Batches, b)
			// The levels' games are numbered apart in the pile's table.
			for _, p := range r.Points {
				p.Game += all.Games
				all.points = append(all.points, p)
			}
			all.Games, all.Wins = all.Games+r.Games, all.Wins+r.Wins
			if dump != nil {
				for _, p := range r.Points {
					if err := dump.Encode(struct {
						Pile  string `json:"pile"`
						Level string `json:"level"`
						grizzbot.CalibrationPoint
					}{string(pile), level, p}); err != nil {
						return fmt.Errorf("%w", err)
					}
				}
			}
		}
		if len(levels) > 1 {
			rep.Batches = append(rep.Batches, batchOf(all.Pile, all.Bots, all.Games, all.Wins, all.points))
		}
	}
	tick(-1)
	rep.ElapsedSec = time.Since(start).Seconds()
	if c.json {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		printCalibration(stdout, rep)
	}
	if rep.Interrupted {
		return fmt.Errorf("calibration interrupted: %w", ctx.Err())
	}
	return nil
}

// batchOf sums up a batch's points.
func batchOf(pile, bots string, games, wins int, points []grizzbot.CalibrationPoint) calibrateBatch {
	b := calibrateBatch{Pile: pile, Bots: bots, Games: games, Wins: wins, Points: len(points), Brier: grizzbot.Brier(points),
		Deciles: grizzbot.Deciles(points), points: points}
	won := 0
	for _, p := range points {
		if p.Won {
			won++
		}
	}
	if len(points) > 0 {
		rate := float64(won) / float64(len(points))
		b.Base = rate * (1 - rate)
	}
	for _, d := range b.Deciles {
		if d.Count >= calibrationCount {
			b.Worst = max(b.Worst, math.Abs(d.Predicted-d.Observed))
		}
	}
	return b
}

// printCalibration writes each batch's deciles.
func printCalibration(w io.Writer, r calibrateReport) {
	if len(r.From) > 0 {
		fmt.Fprintf(w, "The coach's chances against results, as kept in %s\n", strings.Join(r.From, ", "))
	} else {
		fmt.Fprintf(w, "The coach's chances against results: %d games a pile and bot level, seed %d, %d workers (%.0f s)\n", r.Games, r.Seed, r.Workers, r.ElapsedSec)
	}
	fmt.Fprintf(w, "A decile with %d chances or more is within the goal when its games were won within %.0f points of the chance shown.\n",
		calibrationCount, 100*calibrationGoal)
	fmt.Fprintln(w, "± is the 95% margin of a decile's observed share from its games alone (a game's chances share its result).")
	for _, b := range r.Batches {
		fmt.Fprintf(w, "\n%s pile, %s bots: %d games, %d won; %d chances; Brier %.3f (always the win rate: %.3f); worst decile %.1f points\n",
			b.Pile, b.Bots, b.Games, b.Wins, b.Points, b.Brier, b.Base, 100*b.Worst)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "shown\tpredicted\tobserved\t±\tcount\tgames\t\t")
		for _, d := range b.Deciles {
			if d.Count == 0 {
				continue
			}
			mark := ""
			switch {
			case d.Count < calibrationCount:
				mark = "few"
			case math.Abs(d.Predicted-d.Observed) > calibrationGoal:
				mark = "OFF"
			}
			fmt.Fprintf(tw, "%.0f–%.0f%%\t%.1f%%\t%.1f%%\t%.1f\t%d\t%d\t%s\t\n", 100*d.From, 100*d.To, 100*d.Predicted, 100*d.Observed,
				100*d.Margin, d.Count, d.Games, mark)
		}
		tw.Flush()
	}
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures cover the games that finished")
	}
}

// keptPoint is a line of a --points file.
type keptPoint struct {
	Pile  string `json:"pile"`
	Level string `json:"level"`
	grizzbot.CalibrationPoint
}

// pooled prints the table of the points kept in c.from's files: a game is
// a file's pile, level and game number, renumbered so that games of
// different files stay apart.
func pooled(c config, stdout io.Writer) error {
	type batchKey struct{ pile, level string }
	type gameKey struct {
		file        int
		pile, level string
		game        int
	}
	rep := calibrateReport{From: strings.Split(c.from, ",")}
	points := map[batchKey][]grizzbot.CalibrationPoint{}
	number := map[gameKey]int{}
	won := map[gameKey]bool{}
	perBatch := map[batchKey]int{}
	for i, path := range rep.From {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("%w", err)
		}
		dec := json.NewDecoder(f)
		for {
			var p keptPoint
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
			b, gk := batchKey{p.Pile, p.Level}, gameKey{i, p.Pile, p.Level, p.Game}
			n, ok := number[gk]
			if !ok {
				n = perBatch[b]
				number[gk], perBatch[b] = n, n+1
				won[gk] = p.Won
			}
			p.Game = n
			points[b] = append(points[b], p.CalibrationPoint)
		}
		f.Close()
	}
	wins := map[batchKey]int{}
	for gk, w := range won {
		if w {
			wins[batchKey{gk.pile, gk.level}]++
		}
	}
	for _, pile := range grizzbot.Piles {
		all := calibrateBatch{Pile: string(pile), Bots: "all"}
		levels := 0
		for _, level := range (grizzbot.Bots{}).Levels() {
			b := batchKey{string(pile), level}
			if perBatch[b] == 0 {
				continue
			}
			levels++
			rep.Batches = append(rep.Batches, batchOf(b.pile, level, perBatch[b], wins[b], points[b]))
			// The levels' games are numbered apart in the pile's table.
			for _, p := range points[b] {
				p.Game += all.Games
				all.points = append(all.points, p)
			}
			all.Games, all.Wins = all.Games+perBatch[b], all.Wins+wins[b]
		}
		if levels > 1 {
			rep.Batches = append(rep.Batches, batchOf(all.Pile, all.Bots, all.Games, all.Wins, all.points))
		}
	}
	if len(rep.Batches) == 0 {
		return fmt.Errorf("no chances in %s", c.from)
	}
	if c.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	printCalibration(stdout, rep)
	return nil
}

// listOf parses a comma-separated list of names from have ("" is all).
func listOf[T ~string](s string, have []T) ([]T, error) {
	if s == "" {
		return have, nil
	}
	var out []T
	for _, name := range strings.Split(s, ",") {
		found := false
		for _, h := range have {
			if string(h) == strings.TrimSpace(name) {
				out, found = append(out, h), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown %q (have %v)", name, have)
		}
	}
	return out, nil
}
