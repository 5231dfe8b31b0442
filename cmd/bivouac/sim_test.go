package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games"
)

func runSimJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if err := runSim(context.Background(), append(args, "--json"), &out, &errb); err != nil {
		t.Fatalf("sim %v: %v (stderr %q)", args, err, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("sim %v printed %q: %v", args, out.String(), err)
	}
	if strings.Count(strings.TrimSpace(out.String()), "\n") != 0 {
		t.Errorf("--json printed more than one line: %q", out.String())
	}
	if errb.Len() != 0 {
		t.Errorf("stderr is not a terminal, yet sim wrote %q", errb.String())
	}
	return m
}

func num(t *testing.T, m map[string]any, key string) float64 {
	t.Helper()
	x, ok := m[key].(float64)
	if !ok {
		t.Fatalf("JSON has no number %q: %v", key, m)
	}
	return x
}

func TestSimGrizzledJSON(t *testing.T) {
	t.Parallel()
	m := runSimJSON(t, "--players", "4", "--variant", "standard", "--bot", "easy", "--games", "60", "--seed", "3", "--workers", "3")
	games, wins := num(t, m, "games"), num(t, m, "wins")
	if games != 60 {
		t.Fatalf("games = %v, want 60", games)
	}
	hk, mor := num(t, m, "losses_hard_knocks"), num(t, m, "losses_morale")
	if wins+hk+mor != games {
		t.Errorf("wins %v + hard knocks %v + morale %v != games %v", wins, hk, mor, games)
	}
	rate, lo, hi := num(t, m, "win_rate"), num(t, m, "ci_low"), num(t, m, "ci_high")
	if math.Abs(rate-wins/games) > 1e-12 || lo > rate || rate > hi || lo < 0 || hi > 1 {
		t.Errorf("win_rate %v with interval [%v, %v] for %v/%v", rate, lo, hi, wins, games)
	}
	if mm := num(t, m, "mean_missions"); mm < 1 || mm > 40 {
		t.Errorf("mean_missions = %v", mm)
	}
	if num(t, m, "games_per_sec") <= 0 {
		t.Error("games_per_sec is not positive")
	}

	// The same seed gives the same games whatever the number of workers.
	again := runSimJSON(t, "--players", "4", "--bot", "easy", "--games", "60", "--seed", "3", "--workers", "1")
	for _, k := range []string{"wins", "losses_hard_knocks", "losses_morale", "mean_missions", "mean_actions"} {
		if num(t, m, k) != num(t, again, k) {
			t.Errorf("%s: %v with 3 workers, %v with 1", k, num(t, m, k), num(t, again, k))
		}
	}
}

func TestSimStrongJSON(t *testing.T) {
	t.Parallel()
	m := runSimJSON(t, "--players", "3", "--variant", "veteran", "--bot", "strong", "--samples", "2", "--games", "3", "--seed", "1")
	if num(t, m, "games") != 3 {
		t.Fatalf("games = %v", m["games"])
	}
}

func TestSimWerewolfJSON(t *testing.T) {
	t.Parallel()
	m := runSimJSON(t, "--game", "werewolf", "--players", "8", "--bot", "easy", "--games", "30", "--seed", "2")
	if num(t, m, "games") != 30 || m["werewolf"] == nil {
		t.Fatalf("werewolf sim: %v", m)
	}
}

func TestSimText(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if err := runSim(context.Background(), []string{"--games", "20", "--players", "2"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"20 games", "95% CI", "hard knocks", "morale", "mean missions", "games/s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSimRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--players", "6"},
		{"--players", "1"},
		{"--variant", "expert"},
		{"--bot", "grandmaster"},
		{"--games", "0"},
		{"--workers", "0"},
		{"--game", "chess"},
		{"--progress", "sometimes"},
		{"stray"},
	} {
		var out, errb bytes.Buffer
		if err := runSim(context.Background(), append([]string{"--games", "1"}, args...), &out, &errb); err == nil {
			t.Errorf("sim %v: no error", args)
		}
	}
}

func TestSimInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if err := runSim(ctx, []string{"--games", "50", "--json"}, &out, &errb); err == nil {
		t.Error("a cancelled sim returned no error")
	}
}

// Werewolves at its default and at the edges of what it seats: no panic,
// a clear refusal outside, and a report with nothing of The Grizzled in it.
func TestSimWerewolfPlayers(t *testing.T) {
	t.Parallel()
	m := runSimJSON(t, "--game", "werewolf", "--games", "2", "--seed", "1")
	if num(t, m, "players") != 8 {
		t.Errorf("default werewolf table: %v players, want 8", m["players"])
	}
	if m["wins_count"] != "village" {
		t.Errorf("wins_count = %v, want village", m["wins_count"])
	}
	for _, k := range []string{"variant", "mean_missions", "losses_hard_knocks", "losses_morale"} {
		if _, ok := m[k]; ok {
			t.Errorf("werewolf report carries the Grizzled field %q", k)
		}
	}
	runSimJSON(t, "--game", "werewolf", "--players", "5", "--games", "1")
	runSimJSON(t, "--game", "werewolf", "--players", "18", "--games", "1")
	for _, n := range []string{"4", "1", "19", "-3"} {
		var out, errb bytes.Buffer
		err := runSim(context.Background(), []string{"--game", "werewolf", "--players", n, "--games", "1"}, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), "8 to 18 players") {
			t.Errorf("--players %s: err %v, want one that says 8 to 18 players", n, err)
		}
	}
	g := runSimJSON(t, "--games", "2")
	if g["wins_count"] != "team" || g["variant"] != "standard" || num(t, g, "players") != 4 {
		t.Errorf("grizzled report: %v", g)
	}
}

// --matrix plays every variant × player count × bot level on the same
// seeds, one report a cell; what it covers cannot be narrowed. The strong
// bots search two samples a decision: what is checked here is the matrix,
// not their strength, and their full budget would cost minutes under -race.
func TestSimMatrix(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if err := runSim(context.Background(), []string{"--matrix", "--games", "2", "--seed", "3", "--samples", "2", "--json"}, &out, &errb); err != nil {
		t.Fatalf("matrix: %v (%s)", err, errb.String())
	}
	var rep struct {
		Games int    `json:"games_per_cell"`
		Seed  uint64 `json:"seed"`
		Cells []struct {
			Variant              string
			Players, Wins, Games int
			Bot                  string
			WinRate              float64 `json:"win_rate"`
			CILow                float64 `json:"ci_low"`
			CIHigh               float64 `json:"ci_high"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Cells) != 3*4*2 || rep.Games != 2 || rep.Seed != 3 {
		t.Fatalf("%d cells of %d games, seed %d", len(rep.Cells), rep.Games, rep.Seed)
	}
	seen := map[string]bool{}
	for _, c := range rep.Cells {
		key := fmt.Sprintf("%s/%d/%s", c.Variant, c.Players, c.Bot)
		if seen[key] || c.Games != 2 || c.CILow > c.WinRate || c.CIHigh < c.WinRate {
			t.Errorf("cell %s: %+v", key, c)
		}
		seen[key] = true
	}
	// A cell is the same game as a single sim with its settings.
	one := runSimJSON(t, "--players", "3", "--variant", "veteran", "--bot", "easy", "--games", "2", "--seed", "3")
	for _, c := range rep.Cells {
		if c.Variant == "veteran" && c.Players == 3 && c.Bot == "easy" && float64(c.Wins) != num(t, one, "wins") {
			t.Errorf("the matrix cell won %d, the single sim %v", c.Wins, one["wins"])
		}
	}
	var text bytes.Buffer
	if err := runSim(context.Background(), []string{"--matrix", "--games", "1", "--samples", "2"}, &text, &errb); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(text.String(), "\n"); lines != 3+24 || !strings.Contains(text.String(), "95% interval") {
		t.Errorf("the table (%d lines):\n%s", lines, text.String())
	}
	if err := runSim(context.Background(), []string{"--matrix", "--players", "3"}, &text, &errb); err == nil {
		t.Error("--matrix with --players was accepted")
	}
}

// `bivouac sim` plays every registered game, through the game's own
// simulation or its bots through the contract, with its default table.
func TestSimRunsEveryRegisteredGame(t *testing.T) {
	t.Parallel()
	for _, m := range games.Catalog() {
		if m.Bots == nil {
			continue
		}
		r := runSimJSON(t, "--game", m.Game.ID(), "--games", "2", "--seed", "4")
		if r["game"] != m.Game.ID() || num(t, r, "games") != 2 || num(t, r, "players") != float64(m.Players.Default) {
			t.Errorf("%s: %v", m.Game.ID(), r)
		}
	}
}
