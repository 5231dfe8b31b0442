package sim

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/bivouac-ssh/bivouac/game"
)

// MaxActions bounds one game played through the contract, timers
// included: a game that goes on past it counts as unfinished.
const MaxActions = 100_000

// Contract is the simulation every game with bots has: bot-only games
// played through game.Game alone, with the table's default options. The
// first waiting seat whose bot has a move plays it; when no bot has one,
// the pending timer fires, as the table would after its wait. Its wins are
// the first seat's (how much going first is worth); its figures count the
// outcomes.
func Contract(g game.Game, b game.Bots) Simulator { return contract{g, b} }

type contract struct {
	g game.Game
	b game.Bots
}

func (contract) Settings() []Setting { return nil }

func (s contract) Check(c Config) error {
	if !slices.Contains(s.b.Levels(), c.Bot) {
		return fmt.Errorf("%s has no bot %q (%s)", s.g.Title(), c.Bot, strings.Join(s.b.Levels(), ", "))
	}
	return nil
}

// contractGame is one game's end.
type contractGame struct {
	outcome string // "" when unfinished
	first   bool   // the first seat won
	actions int
	err     error
}

func (s contract) Simulate(ctx context.Context, c Config, tick func(done int)) (Outcome, error) {
	games := make([]contractGame, c.Games)
	var mu sync.Mutex
	var failed error
	ran := Run(ctx, c.Workers, c.Games, func() func(int) int {
		bots := make([]game.Bot, c.Players)
		for i := range bots {
			bot, err := s.b.New(c.Bot)
			if err != nil {
				mu.Lock()
				failed = err
				mu.Unlock()
				return func(int) int { return 0 }
			}
			bots[i] = bot
		}
		return func(i int) int {
			games[i] = s.play(bots, Seed(c.Seed, i))
			return 1
		}
	}, tick)
	if failed != nil {
		return Outcome{}, failed
	}
	f := ContractFigures{Outcomes: map[string]int{}}
	o := Outcome{WinsCount: "first_seat", Figures: &f}
	for i, g := range games {
		if !ran[i] {
			o.Interrupted = true
			continue
		}
		if g.err != nil {
			return o, fmt.Errorf("game %d: %w", i, g.err)
		}
		o.Games++
		o.Actions += g.actions
		if g.outcome == "" {
			f.Unfinished++
			continue
		}
		f.Outcomes[g.outcome]++
		if g.first {
			o.Wins++
		}
	}
	return o, nil
}

// play plays one game with a bot on every seat.
func (s contract) play(bots []game.Bot, seed uint64) contractGame {
	names := make([]string, len(bots))
	for i := range names {
		names[i] = fmt.Sprintf("bot %d", i+1)
	}
	st, _, err := s.g.New(game.Setup{Game: s.g.ID(), Names: names}, seed)
	if err != nil {
		return contractGame{err: err}
	}
	var out contractGame
	for out.actions < MaxActions {
		if r, over := s.g.Result(st); over {
			out.outcome, out.first = r.Outcome, slices.Contains(r.Winners, 0)
			return out
		}
		seat, action, ok := s.next(st, bots, Seed(seed, out.actions))
		if !ok {
			t, armed := s.g.Timer(st)
			if !armed {
				return out // nobody can move and nothing will happen: unfinished
			}
			seat, action = game.System, t.Action
		}
		if st, _, err = s.g.Apply(st, seat, action); err != nil {
			return contractGame{err: fmt.Errorf("seat %d's move refused: %w", seat, err)}
		}
		out.actions++
	}
	return out
}

// next is the first waiting seat's move whose bot has one.
func (s contract) next(st game.State, bots []game.Bot, seed uint64) (game.Seat, game.Action, bool) {
	for _, seat := range s.g.Waiting(st) {
		if seat < 0 || int(seat) >= len(bots) {
			continue
		}
		if a, ok := bots[seat].Act(s.g.View(st, seat), seed); ok {
			return seat, a, true
		}
	}
	return 0, nil, false
}

// ContractFigures are what a batch played through the contract adds to
// its report: how its games ended.
type ContractFigures struct {
	Outcomes   map[string]int `json:"outcomes"`   // by game.Result's Outcome
	Unfinished int            `json:"unfinished"` // stopped at MaxActions or stuck: a bug if any
}

func (f *ContractFigures) WriteReport(w io.Writer, r Report) {
	fmt.Fprintf(w, "%s: %d games, %d players, %s bots (seed %d, %d workers)\n", r.Title, r.Games, r.Players, r.Bot, r.Seed, r.Workers)
	fmt.Fprintf(w, "first seat wins: %d (%s, 95%% CI %s to %s)\n", r.Wins, Pct(r.WinRate), Pct(r.CILow), Pct(r.CIHigh))
	var ends []string
	for _, o := range slices.Sorted(maps.Keys(f.Outcomes)) {
		ends = append(ends, fmt.Sprintf("%s %d", o, f.Outcomes[o]))
	}
	if len(ends) == 0 {
		ends = []string{"none"}
	}
	fmt.Fprintf(w, "outcomes: %s; unfinished %d\n", strings.Join(ends, ", "), f.Unfinished)
	fmt.Fprintf(w, "mean actions per game: %.1f\n", r.MeanActions)
}

func (f *ContractFigures) Columns() []Column {
	return []Column{{Head: "unfinished", Value: fmt.Sprint(f.Unfinished)}}
}
