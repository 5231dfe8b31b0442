package sim_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
	"github.com/bivouac-ssh/bivouac/game/sim"
)

// flipper plays the coin: it flips whenever asked, or never (idle), or
// sends what the rules refuse (cheat).
type flipper struct{ idle, cheat bool }

func (f flipper) Levels() []string             { return []string{"easy"} }
func (f flipper) New(string) (game.Bot, error) { return f, nil }
func (f flipper) Act(game.View, uint64) (game.Action, bool) {
	switch {
	case f.idle:
		return nil, false
	case f.cheat:
		return 42, true
	}
	return "flip", true
}

// cheatingCoin refuses a move that is not "flip", as real rules would.
type cheatingCoin struct{ gametest.Coin }

func (c cheatingCoin) Apply(s game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	if a != "flip" {
		return s, nil, game.ErrBadAction
	}
	return c.Coin.Apply(s, seat, a)
}

func contractBatch(t *testing.T, g game.Game, b game.Bots, games int) (sim.Outcome, error) {
	t.Helper()
	s := sim.Contract(g, b)
	c := sim.Config{Players: 2, Bot: "easy", Games: games, Seed: 1, Workers: 2}
	if err := s.Check(c); err != nil {
		t.Fatal(err)
	}
	return s.Simulate(context.Background(), c, func(int) {})
}

// Any game with bots plays bot-only batches through the contract: every
// game to its end, its outcomes counted, its actions summed.
func TestContractPlaysAnyGameToItsEnd(t *testing.T) {
	o, err := contractBatch(t, gametest.Coin{}, flipper{}, 30)
	if err != nil {
		t.Fatal(err)
	}
	f := o.Figures.(*sim.ContractFigures)
	if o.Games != 30 || o.Actions != 90 || f.Outcomes["win"] != 30 || f.Unfinished != 0 || o.Interrupted {
		t.Fatalf("outcome %+v, figures %+v", o, f)
	}
	var text strings.Builder
	r := sim.NewReport("coin", "Coin", sim.Config{Players: 2, Bot: "easy", Seed: 1, Workers: 2}, o, 0)
	f.WriteReport(&text, r)
	if !strings.Contains(text.String(), "Coin: 30 games, 2 players, easy bots") || !strings.Contains(text.String(), "outcomes: win 30; unfinished 0") {
		t.Errorf("text:\n%s", text.String())
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"games":30,`) || !strings.HasSuffix(string(b), `"outcomes":{"win":30},"unfinished":0}`) {
		t.Errorf("JSON %s", b)
	}
}

// A game nobody can move in, with no timer, ends the batch's game as
// unfinished; a bot's move the rules refuse is an error, not a result.
func TestContractSaysWhatWentWrong(t *testing.T) {
	o, err := contractBatch(t, gametest.Coin{}, flipper{idle: true}, 3)
	if err != nil || o.Figures.(*sim.ContractFigures).Unfinished != 3 || o.Games != 3 {
		t.Errorf("idle bots: %+v, %v", o, err)
	}
	if _, err := contractBatch(t, cheatingCoin{}, flipper{cheat: true}, 3); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a refused move: %v", err)
	}
	if err := sim.Contract(gametest.Coin{}, flipper{}).Check(sim.Config{Players: 2, Bot: "grandmaster"}); err == nil {
		t.Error("an unknown bot level was accepted")
	}
}
