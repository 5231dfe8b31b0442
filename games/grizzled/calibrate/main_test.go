package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A calibration prints a decile table per pile and bot level,
// and --points writes every chance shown, which the table counts.
func TestCalibrate(t *testing.T) {
	t.Parallel()
	points := filepath.Join(t.TempDir(), "points.jsonl")
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"--games", "2", "--piles", "campaign", "--bots", "easy",
		"--seed", "5", "--points", points}, &out, &errb)
	if err != nil {
		t.Fatalf("%v (stderr %q)", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{"campaign pile, easy bots: 2 games", "predicted", "observed", "Brier"} {
		if !strings.Contains(text, want) {
			t.Errorf("the table has no %q:\n%s", want, text)
		}
	}
	f, err := os.Open(points)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p struct {
			Pile   string  `json:"pile"`
			Level  string  `json:"level"`
			Shown  float64 `json:"shown"`
			Trials int     `json:"trials"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if p.Pile != "campaign" || p.Level != "easy" || p.Shown < 0 || p.Shown > 1 || p.Trials < 20 || p.Trials > 30 {
			t.Errorf("point %s", sc.Text())
		}
		n++
	}
	if n == 0 || !strings.Contains(text, "; "+itoa(n)+" chances;") {
		t.Errorf("%d points written; the table says:\n%s", n, text)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Calibration chooses its own players, rules and bots: those flags are
// refused, as is an unknown pile or level.
func TestCalibrateRefusesWhatItChooses(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--players", "3"},
		{"--bot", "easy"},
		{"--piles", "nowhere"},
		{"--bots", "grandmaster"},
		{"--progress", "sometimes"},
		{"stray"},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), append(args, "--games", "1"), &out, &errb); err == nil {
			t.Errorf("sim %v: no error", args)
		}
	}
}

// --from pools the chances that runs kept into one table: the games of
// two seeds stay apart, and every chance kept is counted.
func TestCalibrateFromKeptPoints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var files []string
	chances := 0
	for _, seed := range []string{"5", "6"} {
		points := filepath.Join(dir, "points"+seed+".jsonl")
		var out, errb bytes.Buffer
		if err := run(context.Background(), []string{"--games", "2", "--piles", "standard", "--bots", "strong",
			"--seed", seed, "--points", points}, &out, &errb); err != nil {
			t.Fatalf("%v (stderr %q)", err, errb.String())
		}
		data, err := os.ReadFile(points)
		if err != nil {
			t.Fatal(err)
		}
		chances += strings.Count(string(data), "\n")
		files = append(files, points)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"--from", strings.Join(files, ",")}, &out, &errb); err != nil {
		t.Fatalf("%v (stderr %q)", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{"as kept in " + files[0], "standard pile, strong bots: 4 games", "; " + itoa(chances) + " chances;", "±"} {
		if !strings.Contains(text, want) {
			t.Errorf("the pooled table has no %q:\n%s", want, text)
		}
	}
	if err := run(context.Background(), []string{"--from", filepath.Join(dir, "none.jsonl")}, &out, &errb); err == nil {
		t.Error("--from a missing file: no error")
	}
}
