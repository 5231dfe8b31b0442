package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for bivouac-load when the harness
// starts its baseline child (it runs os.Executable() baseline ...).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "baseline" {
		if err := runBaselineChild(context.Background(), os.Args[2:], os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLoadSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers and 40 SSH sessions")
	}
	var out, errb bytes.Buffer
	// More tables than one address may hold by default: the harness's
	// players all come from loopback, so it must raise that limit.
	// The allocation budgets are checked here, on every submission: counts,
	// not times, so they hold on a busy machine (testdata/budgets.json).
	args := []string{"-sessions", "20", "-tables", "10", "-probes", "2", "-play", "4s", "-think", "200ms",
		"-idle", "5s", "-limit", "2m", "-budgets", "testdata/budgets.json", "-v"}
	start := time.Now()
	err := runLoad(t.Context(), args, &out, &errb)
	t.Logf("took %v\n%s\n%s", time.Since(start), out.String(), errb.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sessions connected", "20/20", "10 / 10", "keypress → screen update, all typing, p99", "connect wall time",
		"fan-out", "server RSS per session", "server CPU, all idle",
		"server allocations per move", "server allocations per frame", "server allocations per idle session-minute"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestBudgetsCatchARegression builds the server with a deliberate
// regression (cmd/bivouac/regression.go: 32 KiB of garbage every 5 ms) and
// checks that the budgets TestLoadSmall holds it to fail the run.
func TestBudgetsCatchARegression(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server and starts 20 SSH sessions")
	}
	var out, errb bytes.Buffer
	args := []string{"-tags", "budgetregression", "-sessions", "20", "-tables", "0", "-probes", "2", "-few", "0",
		"-idle", "2s", "-baseline=false", "-limit", "2m", "-budgets", "testdata/budgets.json"}
	err := runLoad(t.Context(), args, &out, &errb)
	t.Logf("%s\n%s", out.String(), errb.String())
	if err == nil || !strings.Contains(err.Error(), "over the budgets") {
		t.Fatalf("a server making garbage passed the budgets: %v", err)
	}
	for _, want := range []string{"per idle session per minute", "per frame"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the failure does not name the %s budget: %v", want, err)
		}
	}
}

func TestBudgetsNameWhatIsOver(t *testing.T) {
	b := allocBudgets{Move: allocCount{Allocs: 100, Bytes: 1000}, Frame: allocCount{Allocs: 10}}
	ok := allocResult{move: allocCount{Allocs: 100, Bytes: 1000}, frame: allocCount{Allocs: 10, Bytes: 1e9}, idle: allocCount{Allocs: 1e9}}
	if over := ok.overBudget(b); len(over) != 0 {
		t.Errorf("at the budgets, or without one: %v", over)
	}
	bad := allocResult{move: allocCount{Allocs: 100, Bytes: 1001}, frame: allocCount{Allocs: 11}}
	over := bad.overBudget(b)
	if len(over) != 2 || !strings.Contains(over[0], "bytes per move 1001 > budget 1000") || !strings.Contains(over[1], "allocations per frame 11 > budget 10") {
		t.Errorf("over = %q", over)
	}
}

func TestLoadRefusesOtherHosts(t *testing.T) {
	for _, a := range []string{"10.0.0.1:22", "example.org:2222", "[::1]:2222", "0.0.0.0:2222"} {
		if err := loopbackOnly(a); err == nil {
			t.Errorf("%s accepted", a)
		}
	}
	if err := loopbackOnly("127.0.0.1:2222"); err != nil {
		t.Error(err)
	}
	var out, errb bytes.Buffer
	err := runBaselineChild(t.Context(), []string{"-addr", "192.0.2.1:22", "-data", t.TempDir()}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Fatalf("child on a foreign address: %v", err)
	}
}

func TestLoadSourcesStayOnLoopback(t *testing.T) {
	seen := map[string]int{}
	for i := range 10000 {
		a := loadSource(i)
		if !a.IP.IsLoopback() {
			t.Fatalf("player %d dials from %v", i, a)
		}
		seen[a.IP.String()]++
	}
	if len(seen) != 3 || seen["127.0.0.1"] != sourcesPerTarget {
		t.Errorf("10,000 players from %v", seen)
	}
}

func TestFewClientsSpreadOverAll(t *testing.T) {
	cs := make([]*loadClient, 10)
	for i := range cs {
		cs[i] = &loadClient{name: fmt.Sprint(i)}
	}
	few := fewClients(cs, 3)
	if len(few) != 3 || few[0].name != "0" || few[1].name != "3" || few[2].name != "6" {
		t.Errorf("few = %v", few)
	}
	if len(fewClients(cs, 0)) != 0 || len(fewClients(cs, 20)) != 10 {
		t.Error("none for 0, all for more than there are")
	}
}
