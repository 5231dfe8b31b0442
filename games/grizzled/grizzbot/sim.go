package grizzbot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/sim"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// SimConfig is a batch of bot-only games of The Grizzled (`bivouac sim`).
type SimConfig struct {
	Players int
	Variant g.Variant
	Level   string // every seat's bot level
	Games   int
	Seed    uint64 // game i is seeded from Seed and i alone
	Workers int    // games played at once
	// Samples, when positive, overrides the strong level's samples per
	// decision; TimeCap, when positive, caps a strong decision on Clock.
	Samples int
	TimeCap time.Duration
	Clock   Clock
}

// SimResult sums up a batch.
type SimResult struct {
	Games            int // played to the end
	Wins             int // by the team
	LossesHardKnocks int
	LossesMorale     int
	Missions         int // over every game played
	Actions          int // over every game played
	Interrupted      bool
}

// simGame is one finished game of a batch.
type simGame struct {
	won      bool
	reason   g.Loss
	missions int
	actions  int
	err      error
}

// Simulate plays c's games on c.Workers goroutines until ctx ends; tick is
// told how many games are done, then -1. An unknown variant or level, or a
// game whose bots break the rules, is an error.
func Simulate(ctx context.Context, c SimConfig, tick func(done int)) (SimResult, error) {
	if c.Variant != g.Standard && c.Variant != g.Beginner && c.Variant != g.Veteran {
		return SimResult{}, fmt.Errorf("unknown variant %q (standard, beginner or veteran)", c.Variant)
	}
	maker := Bots{}
	if c.Level == LevelStrong && (c.Samples > 0 || c.TimeCap > 0) {
		maker.Strong = DefaultTuned[c.Players]
		if c.Samples > 0 {
			maker.Strong.Samples = c.Samples
		}
		maker.Strong.TimeCap, maker.Strong.Clock = c.TimeCap, c.Clock
	}
	if !slices.Contains(maker.Levels(), c.Level) {
		return SimResult{}, fmt.Errorf("unknown bot level %q for grizzled (%s)", c.Level, strings.Join(maker.Levels(), ", "))
	}
	names := make([]string, c.Players)
	for i := range names {
		names[i] = fmt.Sprintf("Bot %d", i+1)
	}
	opts := g.Options{Variant: c.Variant, Leader: game.NoSeat}

	games := make([]simGame, c.Games)
	ran := sim.Run(ctx, c.Workers, c.Games, func() func(int) int {
		bots := make([]game.Bot, max(c.Players, 3))
		for j := range bots {
			bots[j], _ = maker.New(c.Level) // the level was checked above
		}
		return func(i int) int {
			games[i] = playSim(names, opts, sim.Seed(c.Seed, i), bots)
			return 1
		}
	}, tick)

	var res SimResult
	for i := range games {
		r := &games[i]
		if !ran[i] {
			res.Interrupted = true
			continue
		}
		if r.err != nil {
			return res, fmt.Errorf("game %d (seed %d): %w", i, sim.Seed(c.Seed, i), r.err)
		}
		res.Games++
		res.Missions += r.missions
		res.Actions += r.actions
		switch {
		case r.won:
			res.Wins++
		case r.reason == g.LossKnocks:
			res.LossesHardKnocks++
		case r.reason == g.LossMorale:
			res.LossesMorale++
		}
	}
	return res, nil
}

// playSim plays one game of a batch with bots on every seat.
func playSim(names []string, opts g.Options, seed uint64, bots []game.Bot) simGame {
	s, _, err := g.NewGame(names, opts, seed)
	if err != nil {
		return simGame{err: err}
	}
	n, err := Play(s, bots, seed)
	if err != nil {
		return simGame{err: err}
	}
	won, _ := s.Over()
	return simGame{won: won, reason: s.LossReason(), missions: s.Round(), actions: n}
}

// MatrixCells are the settings `bivouac sim --matrix` plays, in print
// order: by variant, then players, then bot level.
func MatrixCells() []SimConfig {
	var cells []SimConfig
	for _, v := range []g.Variant{g.Beginner, g.Standard, g.Veteran} {
		for p := 2; p <= 5; p++ {
			for _, level := range (Bots{}).Levels() {
				cells = append(cells, SimConfig{Variant: v, Players: p, Level: level})
			}
		}
	}
	return cells
}
