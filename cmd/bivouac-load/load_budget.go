package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Allocation budgets: what the server may allocate per move, per frame and
// per idle session per minute, counted by the Go runtime in the server
// (runtime.ReadMemStats, exact) and divided by what the server itself
// counted (bivouac_moves_total, bivouac_frames_total). Counts, not times:
// they hold on a busy 2-core machine where latencies do not, so CI can
// compare them with the budgets stored beside the test
// (testdata/budgets.json) on every submission.

// allocCount is allocations and bytes, per one of something.
type allocCount struct {
	Allocs float64 `json:"allocs"`
	Bytes  float64 `json:"bytes"`
}

// allocBudgets are the most a run may measure; a zero field is not checked.
type allocBudgets struct {
	Why string `json:"why,omitempty"` // what the figures were measured on, and why they are what they are
	// Move: everything the server allocated while the tables played
	// (rules, store, every seat's view and frame, the SSH writes), per move.
	Move allocCount `json:"move"`
	// Frame: everything allocated while every session pressed keys that
	// redraw its screen (the keypress probe), per frame written.
	Frame allocCount `json:"frame"`
	// IdleSessionMinute: allocated while everyone sat idle, per session
	// and minute (timers, keepalives: what 10,000 idle players cost).
	IdleSessionMinute allocCount `json:"idle_session_minute"`
}

func readBudgets(file string) (allocBudgets, error) {
	var b allocBudgets
	data, err := os.ReadFile(file)
	if err != nil {
		return b, err
	}
	if err := json.Unmarshal(data, &b); err != nil {
		return b, fmt.Errorf("%s: %w", file, err)
	}
	return b, nil
}

// serverCounts are the server's running totals at one moment.
type serverCounts struct {
	allocs, bytes uint64 // runtime.MemStats Mallocs, TotalAlloc
	moves, frames uint64 // bivouac_moves_total, bivouac_frames_total
}

// counter reads a child's totals: its MemStats from the pprof listener's
// /debug/vars, its moves and frames from /metrics. A window's allocations
// lie between two /debug/vars readings, with the /metrics readings
// outside (before the first, after the last): a scrape's size grows with
// the histograms, a /debug/vars reading's does not, so one reading's own
// allocations (overhead) can be taken out.
type counter struct {
	pprof, metrics string
	overhead       serverCounts // what one /debug/vars reading allocates in the server
	logf           func(format string, args ...any)
}

// start reads the totals at a window's start, end at its end.
func (c *counter) start(ctx context.Context) (serverCounts, error) {
	s, err := c.readMetrics(ctx)
	if err != nil {
		return s, err
	}
	s.allocs, s.bytes, err = c.readVars(ctx)
	return s, err
}

func (c *counter) end(ctx context.Context) (serverCounts, error) {
	var s serverCounts
	allocs, bytes, err := c.readVars(ctx)
	if err != nil {
		return s, err
	}
	s, err = c.readMetrics(ctx)
	s.allocs, s.bytes = allocs, bytes
	return s, err
}

func (c *counter) readVars(ctx context.Context) (allocs, bytes uint64, err error) {
	body, err := httpGet(ctx, "http://"+c.pprof+"/debug/vars")
	if err != nil {
		return 0, 0, err
	}
	var vars struct {
		Memstats struct{ Mallocs, TotalAlloc uint64 }
	}
	if err := json.Unmarshal(body, &vars); err != nil {
		return 0, 0, fmt.Errorf("/debug/vars: %w", err)
	}
	return vars.Memstats.Mallocs, vars.Memstats.TotalAlloc, nil
}

func (c *counter) readMetrics(ctx context.Context) (serverCounts, error) {
	var s serverCounts
	body, err := httpGet(ctx, "http://"+c.metrics+"/metrics")
	if err != nil {
		return s, err
	}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		var dst *uint64
		switch name {
		case "bivouac_moves_total":
			dst = &s.moves
		case "bivouac_frames_total":
			dst = &s.frames
		default:
			continue
		}
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return s, fmt.Errorf("/metrics: %s: %w", name, err)
		}
		*dst = uint64(f)
	}
	return s, nil
}

// calibrate measures what a /debug/vars reading allocates in the server:
// the least of a few back-to-back pairs (the first also sets up the
// listener's buffers).
func (c *counter) calibrate(ctx context.Context) error {
	if _, err := c.readMetrics(ctx); err != nil {
		return err
	}
	pa, pb, err := c.readVars(ctx)
	if err != nil {
		return err
	}
	for i := range 4 {
		a, b, err := c.readVars(ctx)
		if err != nil {
			return err
		}
		if d := (serverCounts{allocs: a - pa, bytes: b - pb}); i == 0 || d.bytes < c.overhead.bytes {
			c.overhead = d
		}
		pa, pb = a, b
	}
	return nil
}

// window is what the server allocated between two readings, less one
// reading's own allocations.
func (c *counter) window(from, to serverCounts) serverCounts {
	sub := func(a, b, o uint64) uint64 {
		if d := a - b; a > b && d > o {
			return d - o
		}
		return 0
	}
	if c.logf != nil {
		c.logf("allocations %d, bytes %d, moves %d, frames %d (a reading: %d, %d)", to.allocs-from.allocs, to.bytes-from.bytes,
			to.moves-from.moves, to.frames-from.frames, c.overhead.allocs, c.overhead.bytes)
	}
	return serverCounts{allocs: sub(to.allocs, from.allocs, c.overhead.allocs), bytes: sub(to.bytes, from.bytes, c.overhead.bytes),
		moves: to.moves - from.moves, frames: to.frames - from.frames}
}

func per(w serverCounts, n float64) allocCount {
	if n <= 0 {
		return allocCount{}
	}
	return allocCount{Allocs: float64(w.allocs) / n, Bytes: float64(w.bytes) / n}
}

// allocResult is what a run measured, per unit.
type allocResult struct {
	move, frame, idle allocCount
	moves, frames     uint64 // the counts divided by, for the report
}

// overBudget lists every measure above its budget.
func (a allocResult) overBudget(b allocBudgets) []string {
	var over []string
	check := func(name string, got, max allocCount) {
		if max.Allocs > 0 && got.Allocs > max.Allocs {
			over = append(over, fmt.Sprintf("allocations per %s %.0f > budget %.0f", name, got.Allocs, max.Allocs))
		}
		if max.Bytes > 0 && got.Bytes > max.Bytes {
			over = append(over, fmt.Sprintf("bytes per %s %.0f > budget %.0f", name, got.Bytes, max.Bytes))
		}
	}
	check("move", a.move, b.Move)
	check("frame", a.frame, b.Frame)
	check("idle session per minute", a.idle, b.IdleSessionMinute)
	return over
}

func httpGet(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return body, nil
}

// freeLoopback is a loopback address no one listens on now, for a
// child's pprof or metrics listener.
func freeLoopback() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// readStart and readEnd read the server's totals at a window's ends; a
// failed reading is the run's error (and its window counts nothing).
func readStart(ctx context.Context, c *counter, r *loadResult) serverCounts {
	return mustRead(c.start(ctx))(r)
}

func readEnd(ctx context.Context, c *counter, r *loadResult) serverCounts {
	return mustRead(c.end(ctx))(r)
}

func mustRead(s serverCounts, err error) func(*loadResult) serverCounts {
	return func(r *loadResult) serverCounts {
		if err != nil {
			r.fail("reading the server's allocations", err)
			return serverCounts{}
		}
		r.allocRead = true
		return s
	}
}
