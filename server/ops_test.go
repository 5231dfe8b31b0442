package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
)

// get is what the server's operator listener answers at path.
func get(t *testing.T, srv *Server, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.OpsHandler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, string(body)
}

// The metrics count this node's sessions by kind and its tables by game
// and state, and never name a player or a table.
func TestMetricsCountSessionsAndTables(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	r, err := srv.app.Hub.Create(table.RoomConfig{Game: grizzled.Game{}, Title: game.Raw("Grizzled · 4"), Seats: 4, Host: "x"})
	if err != nil {
		t.Fatal(err)
	}
	key := sshtest.Dial(t, addr, sshtest.WithUser("keyholder"), sshtest.WithPTY(100, 30))
	key.Expect(t, `keyholder`, 5*time.Second)
	guest := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("wanderer"), sshtest.WithPTY(100, 30))
	guest.Expect(t, `wanderer`, 5*time.Second)
	plain := sshtest.Dial(t, addr, sshtest.WithUser("reader"), sshtest.WithoutPTY(), sshtest.WithCommand("plain"))
	plain.Expect(t, `plain mode`, 5*time.Second)
	var out string
	waitUntil(t, "three sessions counted", func() bool {
		_, out = get(t, srv, "/metrics")
		return strings.Contains(out, `bivouac_players_connected{kind="key"} 1`) &&
			strings.Contains(out, `bivouac_players_connected{kind="guest"} 1`) &&
			strings.Contains(out, `bivouac_players_connected{kind="plain"} 1`)
	})
	if !strings.Contains(out, `bivouac_tables{game="grizzled",state="waiting"} 1`) {
		t.Errorf("the waiting table is not counted:\n%s", grepLines(out, "bivouac_tables"))
	}
	for _, secret := range []string{r.Code(), "keyholder", "wanderer", "reader"} {
		if strings.Contains(out, secret) {
			t.Errorf("the metrics name %q", secret)
		}
	}
}

// /healthz answers while the process serves; /readyz only while the store
// is open, and not once it is closed.
func TestReadyzFollowsTheStore(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, t.TempDir())
	if code, body := get(t, srv, "/healthz"); code != 200 || body != "ok\n" {
		t.Fatalf("healthz: %d %q", code, body)
	}
	if code, body := get(t, srv, "/readyz"); code != 200 {
		t.Fatalf("readyz on a fresh server: %d %q", code, body)
	}
	srv.Close()
	if code, body := get(t, srv, "/readyz"); code != 503 || !strings.Contains(body, "store is closed") {
		t.Fatalf("readyz with the store closed: %d %q", code, body)
	}
	if code, _ := get(t, srv, "/healthz"); code != 200 {
		t.Fatalf("healthz with the store closed: %d (the process still serves)", code)
	}
}

// /readyz turns unready while the cluster says it has no majority, and
// ready again once it has; bivouac_ready says the same.
func TestReadyzFollowsTheClusterHealth(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, t.TempDir())
	var health error
	srv.health = func() error { return health }
	health = errors.New("JetStream has no meta leader")
	if code, body := get(t, srv, "/readyz"); code != 503 || !strings.Contains(body, "no meta leader") {
		t.Fatalf("readyz without a majority: %d %q", code, body)
	}
	if _, out := get(t, srv, "/metrics"); !strings.Contains(out, "bivouac_ready 0") {
		t.Errorf("bivouac_ready is not 0 without a majority")
	}
	health = nil
	if code, body := get(t, srv, "/readyz"); code != 200 {
		t.Fatalf("readyz with the majority back: %d %q", code, body)
	}
}

// grepLines is out's lines that contain s.
func grepLines(out, s string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// safeBuffer is a log destination the server and the test share.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A refused session is counted by reason, and its JSON log line carries
// the fields an operator filters on: the remote address, the session,
// the reason; the command it typed is a tag, never the text.
func TestRefusalIsCountedAndLoggedWithFields(t *testing.T) {
	t.Parallel()
	var logs safeBuffer
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Guests: true,
		Log: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	long := "join " + strings.Repeat("SECRETCODE", 110)
	c := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand(long))
	c.Wait(t, 5*time.Second)
	waitUntil(t, "the refusal counted", func() bool {
		_, out := get(t, srv, "/metrics")
		return strings.Contains(out, `bivouac_sessions_refused_total{reason="command_too_long"} 1`)
	})
	var line map[string]any
	waitUntil(t, "the refusal logged", func() bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(l), &rec) == nil && rec["msg"] == "disconnect" && rec["refused"] != nil {
				line = rec
				return true
			}
		}
		return false
	})
	for _, field := range []string{"remote", "session", "id", "refused"} {
		if line[field] == nil || line[field] == "" {
			t.Errorf("the refusal's log line lacks %s: %v", field, line)
		}
	}
	if strings.Contains(logs.String(), "SECRETCODE") {
		t.Error("the log holds the command's words")
	}
}
