package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
)

// lockedBuffer is a bytes.Buffer the server and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// `bivouac serve --metrics-addr A --log-format json` serves /readyz and
// /metrics on A, and logs one JSON object a line.
func TestServeMetricsAndJSONLogs(t *testing.T) {
	addrs, err := natsnode.FreeLoopbackAddrs(1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, en, []string{"--addr", "127.0.0.1:0", "--data", t.TempDir(), "--metrics-addr", addrs[0],
			"--log-format", "json", "--debug"}, &stdout, &stderr)
	}()
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + addrs[0] + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		default:
		}
		if code, body := get("/readyz"); code != 200 {
			return fmt.Errorf("readyz %d %q\n%s", code, body, stderr.String())
		}
		return nil
	})
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "bivouac_players_connected") || !strings.Contains(body, "go_goroutines") {
		t.Errorf("metrics: %d\n%.300s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatal("nothing logged")
	}
	said := map[string]map[string]any{}
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec["msg"] == nil || rec["level"] == nil {
			t.Errorf("not a JSON log line: %q", l)
			continue
		}
		said[rec["msg"].(string)] = rec
	}
	// The banner is in the log, and nowhere else when stdout is no
	// terminal: a collector reading both streams reads only JSON.
	if out := stdout.String(); out != "" {
		t.Errorf("stdout, not a terminal, got the banner with a JSON log:\n%s", out)
	}
	if join, _ := said["ready"]["join"].([]any); len(join) == 0 || !strings.HasPrefix(join[0].(string), "ssh -p ") {
		t.Errorf("no ready record with the join lines: %v", said["ready"])
	}
	for _, msg := range []string{"listening", "metrics and health checks", "shutting down: telling players, saving, closing", "stopped"} {
		if said[msg] == nil {
			t.Errorf("no %q record in the log:\n%s", msg, stderr.String())
		}
	}
}

// Durations in the JSON log are Go's text ("1h0m0s"), not nanoseconds.
func TestJSONLogWritesDurationsAsText(t *testing.T) {
	var b bytes.Buffer
	h, err := logHandler("json", &b, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	slog.New(h).Info("moderation", "duration", time.Hour, "wait", 1500*time.Millisecond)
	var rec map[string]any
	if err := json.Unmarshal(b.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["duration"] != "1h0m0s" || rec["wait"] != "1.5s" {
		t.Errorf("durations: %v, %v (%s)", rec["duration"], rec["wait"], b.String())
	}
}

// A text log keeps the banner on stdout for the person who started it.
func TestBannerGoesToStdoutWithATextLog(t *testing.T) {
	var out bytes.Buffer
	if bannerOut("text", &out) != io.Writer(&out) {
		t.Error("a text log's banner left stdout")
	}
	if bannerOut("json", &out) != io.Discard {
		t.Error("a JSON log's banner went to stdout that is no terminal")
	}
}

func TestLogFormatIsTextOrJSON(t *testing.T) {
	if _, err := logHandler("xml", io.Discard, slog.LevelInfo); err == nil {
		t.Error("--log-format xml accepted")
	}
	for _, f := range []string{"text", "json"} {
		if _, err := logHandler(f, io.Discard, slog.LevelInfo); err != nil {
			t.Errorf("--log-format %s: %v", f, err)
		}
	}
}

// --guests is yes, watch or no (and the usual spellings of yes and no).
func TestParseGuests(t *testing.T) {
	for in, want := range map[string][2]bool{"yes": {true, false}, "true": {true, false}, "watch": {true, true}, "WATCH": {true, true},
		"no": {false, false}, "false": {false, false}, "0": {false, false}} {
		in2, watch, err := parseGuests(in)
		if err != nil || in2 != want[0] || watch != want[1] {
			t.Errorf("parseGuests(%q) = %v, %v, %v; want %v", in, in2, watch, err, want)
		}
	}
	if _, _, err := parseGuests("sometimes"); err == nil {
		t.Error("--guests sometimes accepted")
	}
}
