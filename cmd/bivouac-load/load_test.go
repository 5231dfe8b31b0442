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
	args := []string{"-sessions", "20", "-tables", "10", "-probes", "2", "-play", "4s", "-think", "200ms",
		"-idle", "1s", "-limit", "2m", "-v"}
	start := time.Now()
	err := runLoad(t.Context(), args, &out, &errb)
	t.Logf("took %v\n%s\n%s", time.Since(start), out.String(), errb.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sessions connected", "20/20", "10 / 10", "keypress → screen update, all typing, p99", "connect wall time",
		"fan-out", "server RSS per session", "server CPU, all idle"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q", want)
		}
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
