package wolfbot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/sim"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
)

// SimResult sums up many bot games.
type SimResult struct {
	Players     int           `json:"players"`
	Games       int           `json:"games"`
	Level       string        `json:"level"`
	Village     int           `json:"village"`
	Wolves      int           `json:"wolves"`
	Lovers      int           `json:"lovers"`
	NoWinner    int           `json:"no_winner"` // nobody alive
	Stalemate   int           `json:"stalemate"`
	Unfinished  int           `json:"unfinished"`              // hit the action limit (a bug if > 0)
	Actions     int           `json:"actions"`                 // actions applied, ticks included
	Elapsed     time.Duration `json:"elapsed,omitempty"`       // filled in by whoever timed the games
	GamesPerSec float64       `json:"games_per_sec,omitempty"` // likewise (bivouac sim's report has both)
	Err         string        `json:"err,omitempty"`           // first error (a bot's action refused)
}

func (r SimResult) String() string {
	return fmt.Sprintf("%d games, %d players, %s bots: village %d, wolves %d, lovers %d, no winner %d, stalemate %d, unfinished %d; %d actions; %.0f games/s",
		r.Games, r.Players, r.Level, r.Village, r.Wolves, r.Lovers, r.NoWinner, r.Stalemate, r.Unfinished, r.Actions, r.GamesPerSec)
}

// SimOptions are the options Simulate uses for n players: the Classic
// preset from 8 players, the small-table Starter below.
func SimOptions(n int) werewolf.Options {
	if n < 8 {
		o := werewolf.DefaultOptions()
		o.SmallTable = true
		return o
	}
	return werewolf.ClassicOptions()
}

// Simulate plays games bot games of players seats at level (easy/normal)
// with SimOptions; game i uses a seed drawn from seed. This is what
// `bivouac sim --game werewolf --players N --games 1000` calls.
func Simulate(players, games int, seed uint64, level string) SimResult {
	return SimulateOptions(SimOptions(players), players, games, seed, level)
}

// MaxActions bounds one game (ticks included); no real game comes close.
const MaxActions = 20000

// SimulateOptions is Simulate with explicit options.
func SimulateOptions(opts werewolf.Options, players, games int, seed uint64, level string) SimResult {
	res := SimResult{Players: players, Games: games, Level: level}
	bot, err := NewBot(level)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	names := make([]string, players)
	for i := range names {
		names[i] = fmt.Sprintf("Bot%d", i+1)
	}
	r := rand.New(rand.NewPCG(seed, 0x51))
	for range games {
		g, err := Play(bot, names, opts, r.Uint64(), nil)
		res.Actions += g.Actions
		if err != nil && res.Err == "" {
			res.Err = err.Error()
		}
		if !g.State.Over {
			res.Unfinished++
			continue
		}
		switch g.State.Outcome {
		case werewolf.OutcomeVillage:
			res.Village++
		case werewolf.OutcomeWolves:
			res.Wolves++
		case werewolf.OutcomeLovers:
			res.Lovers++
		case werewolf.OutcomeStalemate:
			res.Stalemate++
		default:
			res.NoWinner++
		}
	}
	return res
}

// batchChunk is how many games one Simulate call of a batch plays; chunk
// k is seeded from the batch's seed and k, so results depend on neither
// the number of workers nor scheduling.
const batchChunk = 25

// SimulateBatch is Simulate on workers goroutines, stopping early when ctx
// ends (the result says Interrupted); tick is told how many games are
// done, then -1. Elapsed and GamesPerSec are the caller's to fill in.
func SimulateBatch(ctx context.Context, players, games int, seed uint64, level string, workers int, tick func(done int)) (SimResult, bool, error) {
	chunks := (games + batchChunk - 1) / batchChunk
	parts := make([]SimResult, chunks)
	ran := sim.Run(ctx, workers, chunks, func() func(int) int {
		return func(k int) int {
			n := min(batchChunk, games-k*batchChunk)
			parts[k] = Simulate(players, n, sim.Seed(seed, k), level)
			return n
		}
	}, tick)
	sum := SimResult{Players: players, Level: level}
	interrupted := false
	for k, p := range parts {
		if !ran[k] {
			interrupted = true
			continue
		}
		if p.Err != "" {
			return sum, interrupted, errors.New(p.Err)
		}
		sum.Games += p.Games
		sum.Village += p.Village
		sum.Wolves += p.Wolves
		sum.Lovers += p.Lovers
		sum.NoWinner += p.NoWinner
		sum.Stalemate += p.Stalemate
		sum.Unfinished += p.Unfinished
		sum.Actions += p.Actions
	}
	return sum, interrupted, nil
}

// Step is one applied action of a played game.
type Step struct {
	Seat   game.Seat
	Action werewolf.Action
}

// Game is a played game: its setup, seed, log and final state.
type Game struct {
	Names   []string
	Options werewolf.Options
	Seed    uint64
	Log     []Step
	State   *werewolf.State
	Actions int
}

// Observer sees every state change of a played game with its events
// (tests use it to check invariants). It may return an error to stop.
type Observer func(s *werewolf.State, seat game.Seat, a werewolf.Action, evs []game.Event) error

// Play runs one game where bot plays every seat: the first waiting seat
// with something to do acts; when none does, the timer fires. With chat,
// bots also talk (through Game.Say) once per phase and the lines go to the
// observer with a KindSay action.
func Play(bot *Bot, names []string, opts werewolf.Options, seed uint64, obs Observer) (Game, error) {
	return play(bot, names, opts, seed, obs, false)
}

// PlayWithChat is Play where bots also talk once per phase.
func PlayWithChat(bot *Bot, names []string, opts werewolf.Options, seed uint64, obs Observer) (Game, error) {
	return play(bot, names, opts, seed, obs, true)
}

func play(bot *Bot, names []string, opts werewolf.Options, seed uint64, obs Observer, chat bool) (Game, error) {
	g := Game{Names: names, Options: opts, Seed: seed}
	st, evs, err := werewolf.NewState(names, opts, seed)
	if err != nil {
		return g, err
	}
	g.State = st
	if obs != nil {
		if err := obs(st, game.System, werewolf.Action{}, evs); err != nil {
			return g, err
		}
	}
	var rules werewolf.Game
	r := rand.New(rand.NewPCG(seed, 0xb07))
	apply := func(seat game.Seat, a werewolf.Action) error {
		next, evs, err := rules.Apply(g.State, seat, a)
		if err != nil {
			return fmt.Errorf("seed %d: %v by seat %d in %v refused: %w", seed, a, seat, g.State.Phase, err)
		}
		g.State = next.(*werewolf.State)
		g.Log = append(g.Log, Step{seat, a})
		g.Actions++
		if obs != nil {
			return obs(g.State, seat, a, evs)
		}
		return nil
	}
	for g.Actions < MaxActions && !g.State.Over {
		if chat {
			for i := range names {
				v := g.State.View(game.Seat(i))
				if line, ok := bot.Chat(v, r.Uint64()); ok {
					_, evs, err := rules.BotLine(g.State, game.Seat(i), line)
					if err == nil && obs != nil {
						if err := obs(g.State, game.Seat(i), werewolf.Action{Kind: werewolf.KindSay, Line: &line}, evs); err != nil {
							return g, err
						}
					}
				}
			}
		}
		acted := false
		for _, seat := range g.State.Waiting() {
			a, ok := bot.Choose(g.State.View(seat), r.Uint64())
			if !ok {
				continue
			}
			if err := apply(seat, a); err != nil {
				return g, err
			}
			acted = true
			break
		}
		if acted {
			continue
		}
		tm, ok := g.State.Timer()
		if !ok {
			break
		}
		if err := apply(game.System, tm.Action.(werewolf.Action)); err != nil {
			return g, err
		}
	}
	return g, nil
}
