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
		done <- runServe(ctx, []string{"--addr", "127.0.0.1:0", "--data", t.TempDir(), "--metrics-addr", addrs[0],
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
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec["msg"] == nil || rec["level"] == nil {
			t.Errorf("not a JSON log line: %q", l)
		}
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
