package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Simulator is a game's simulation ability: batches of bot-only games of
// one kind of table, summed up. A game with bots gets one through the
// contract (Contract); a game whose figures say more (why a game was lost,
// how many missions it lasted) or whose batches have settings of their own
// (a variant, a search budget) writes its own.
type Simulator interface {
	// Settings are the batch's settings of this game beyond players and
	// bot level, each a flag of `bivouac sim`.
	Settings() []Setting
	// Check refuses, saying what the game can play, a batch it cannot:
	// its player count, bot level or settings (Config.Settings holds only
	// those given; the rest take their defaults).
	Check(c Config) error
	// Simulate plays c.Games games on c.Workers goroutines until ctx ends;
	// tick is told how many games are done, then -1. A bot whose move the
	// rules refuse is an error.
	Simulate(ctx context.Context, c Config, tick func(done int)) (Outcome, error)
}

// Matrix is a Simulator with a win-rate matrix of its own: the cells
// `bivouac sim --matrix` plays, in print order. A game without one gets
// every player count by every bot level.
type Matrix interface {
	Cells() []Cell
}

// Cell is one batch of a matrix: its players, bot level and settings.
type Cell struct {
	Players  int
	Bot      string
	Settings map[string]string
}

// Setting is one of a game's own settings of a batch.
type Setting struct {
	Name    string // the flag: "variant" is --variant
	Default string
	Usage   string
}

// Config is one batch.
type Config struct {
	Players  int
	Bot      string // every seat's bot level
	Games    int
	Seed     uint64 // game i is seeded from Seed and i alone
	Workers  int
	Settings map[string]string // the game's own (Simulator.Settings), by name
	// Clock is what a bot's time cap is measured on: the rules read none.
	Clock Clock
}

// Setting is the value of the game's setting name: as given, else its
// default among settings.
func (c Config) Setting(settings []Setting, name string) string {
	if v, ok := c.Settings[name]; ok {
		return v
	}
	for _, s := range settings {
		if s.Name == name {
			return s.Default
		}
	}
	return ""
}

// Clock tells the time (clock.System does).
type Clock interface{ Now() time.Time }

// Outcome is what a batch did.
type Outcome struct {
	Games       int    // played to the end or to the action limit
	Wins        int    // the games WinsCount names
	WinsCount   string // whose wins: "team", "village", "first_seat"
	Actions     int    // over every game played
	Interrupted bool
	Figures     Figures // the game's own; nil: none
}

// Figures are the parts of a report only one game has. In JSON their
// fields sit beside the report's own; in text, WriteReport writes it.
type Figures interface {
	// WriteReport writes the report for people: what was played and what
	// it did, but the speed, which follows.
	WriteReport(w io.Writer, r Report)
	// Columns are the figures' own columns in a matrix's table.
	Columns() []Column
}

// Column is one figure in a matrix's table.
type Column struct{ Head, Value string }

// Report is a batch's outcome with its rates, as `bivouac sim` prints it.
type Report struct {
	Game        string  `json:"game"`
	Title       string  `json:"-"`
	Players     int     `json:"players"`
	Bot         string  `json:"bot"`
	Seed        uint64  `json:"seed"`
	Workers     int     `json:"workers"`
	Games       int     `json:"games"`
	Wins        int     `json:"wins"`
	WinsCount   string  `json:"wins_count"`
	WinRate     float64 `json:"win_rate"`
	CILow       float64 `json:"ci_low"`  // 95% Wilson interval of win_rate
	CIHigh      float64 `json:"ci_high"` //
	MeanActions float64 `json:"mean_actions"`
	ElapsedSec  float64 `json:"elapsed_sec"`
	GamesPerSec float64 `json:"games_per_sec"`
	Interrupted bool    `json:"interrupted,omitempty"`
	// Settings are the game's own settings the batch was played with.
	Settings map[string]string `json:"-"`
	Figures  Figures           `json:"-"`
}

// NewReport sums up a batch of c played in elapsed time.
func NewReport(id, title string, c Config, o Outcome, elapsed time.Duration) Report {
	r := Report{Game: id, Title: title, Players: c.Players, Bot: c.Bot, Seed: c.Seed, Workers: c.Workers,
		Games: o.Games, Wins: o.Wins, WinsCount: o.WinsCount, Interrupted: o.Interrupted,
		ElapsedSec: elapsed.Seconds(), Settings: c.Settings, Figures: o.Figures}
	if r.ElapsedSec > 0 {
		r.GamesPerSec = float64(r.Games) / r.ElapsedSec
	}
	if r.Games > 0 {
		r.WinRate = float64(r.Wins) / float64(r.Games)
		r.MeanActions = float64(o.Actions) / float64(r.Games)
	}
	r.CILow, r.CIHigh = Wilson(r.Wins, r.Games)
	return r
}

// MarshalJSON writes the report's fields, then its figures' beside them.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	b, err := json.Marshal(plain(r))
	if err != nil || r.Figures == nil {
		return b, err
	}
	f, err := json.Marshal(r.Figures)
	if err != nil {
		return nil, err
	}
	if len(f) < 2 || f[0] != '{' {
		return nil, fmt.Errorf("sim: %s's figures are not a JSON object", r.Game)
	}
	if len(f) == 2 {
		return b, nil
	}
	return append(append(bytes.TrimSuffix(b, []byte("}")), ','), f[1:]...), nil
}

// Pct writes a rate as a percentage: "41.5%".
func Pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
