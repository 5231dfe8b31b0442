package simcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
	"github.com/bivouac-ssh/bivouac/game/sim"
)

// stepClock moves a second on every reading.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { c.now = c.now.Add(time.Second); return c.now }

type flipBots struct{}

func (flipBots) Levels() []string                          { return []string{"easy", "lucky"} }
func (flipBots) New(string) (game.Bot, error)              { return flipBots{}, nil }
func (flipBots) Act(game.View, uint64) (game.Action, bool) { return "flip", true }

// coin is a game with bots and no simulation of its own.
var coin = Game{ID: "coin", Title: "Coin", Min: 2, Max: 3, Default: 2, Levels: flipBots{}.Levels(),
	Sim: sim.Contract(gametest.Coin{}, flipBots{})}

func runCoin(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), []Game{coin}, args, &out, &errb, &stepClock{})
	return out.String(), err
}

// A game that brings only bots is simulated through the contract, with
// its declared player range and bot levels; a report in text or JSON.
func TestAGameWithBotsIsSimulated(t *testing.T) {
	text, err := runCoin(t, "--games", "10")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Coin: 10 games, 2 players, easy bots", "first seat wins", "outcomes: win 10", "speed: 10.0 games/s (1.0 s)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	js, err := runCoin(t, "--games", "4", "--players", "3", "--bot", "lucky", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil || m["game"] != "coin" || m["players"] != 3.0 || m["bot"] != "lucky" || m["unfinished"] != 0.0 {
		t.Errorf("JSON %s (%v)", js, err)
	}
	for _, args := range [][]string{{"--players", "4"}, {"--players", "1"}, {"--bot", "hard"}, {"--game", "chess"},
		{"--variant", "x"}, {"--games", "0"}, {"--workers", "0"}, {"--progress", "maybe"}, {"stray"}} {
		if _, err := runCoin(t, append([]string{"--games", "1"}, args...)...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// Without a matrix of its own, a game's matrix is every player count by
// every bot level.
func TestAGamesMatrixIsItsPlayersByItsBots(t *testing.T) {
	text, err := runCoin(t, "--matrix", "--games", "2")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 3+4 || !strings.HasPrefix(lines[2], "players  bot") || !strings.Contains(lines[2], "unfinished") ||
		!strings.HasPrefix(lines[6], "3        lucky") {
		t.Errorf("matrix:\n%s", text)
	}
	if _, err := runCoin(t, "--matrix", "--bot", "easy"); err == nil {
		t.Error("--matrix with --bot was accepted")
	}
}

// A game without bots has nothing to simulate.
func TestNoBotsNoSimulation(t *testing.T) {
	var out, errb bytes.Buffer
	if err := Run(context.Background(), []Game{{ID: "coin"}}, nil, &out, &errb, &stepClock{}); err == nil {
		t.Error("a game without a simulator was simulated")
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	tick := Progress(&b, true, 10, &stepClock{})
	tick(5)
	tick(10)
	tick(-1)
	if !strings.Contains(b.String(), "10/10 games") || !strings.HasSuffix(b.String(), "\r\033[K") {
		t.Errorf("progress bar: %q", b.String())
	}
	var quiet bytes.Buffer
	tick = Progress(&quiet, false, 10, &stepClock{})
	tick(10)
	tick(-1)
	if quiet.Len() != 0 {
		t.Errorf("hidden progress bar wrote %q", quiet.String())
	}
}
