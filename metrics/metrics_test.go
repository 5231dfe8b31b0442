package metrics

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// scrape is the exposition m's handler serves.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d", rec.Code)
	}
	body, _ := io.ReadAll(rec.Body)
	return string(body)
}

func busy() *Metrics {
	m := New(Sources{
		Players: func() map[string]int { return map[string]int{KindKey: 3, KindGuest: 2, KindPlain: 1} },
		Tables: func(add func(game, state string)) {
			add("grizzled", "playing")
			add("grizzled", "playing")
			add("werewolf", "waiting")
		},
		Ready:    func() error { return errors.New("no majority") },
		Cluster:  func() ClusterState { return ClusterState{Nodes: 3} },
		Frames:   func() uint64 { return 7 },
		Refusals: []string{"gate", "ban", "full"},
		Actions:  []string{"ban", "mute", "report"},
	})
	m.Refused("gate")
	m.Refused("gate")
	m.Refused("ban")
	m.Refused("made up by a client")
	m.Moved(3 * time.Millisecond)
	m.Moved(40 * time.Millisecond)
	m.Appended(2 * time.Millisecond)
	m.PutRoom(time.Millisecond)
	m.Moderated("ban")
	m.Moderated("report")
	m.TookOver()
	return m
}

// TestScrape checks every metric the operator's dashboard reads is served,
// with its labels, and the Go and process collectors beside them.
func TestScrape(t *testing.T) {
	out := scrape(t, busy())
	for _, want := range []string{
		`bivouac_players_connected{kind="key"} 3`,
		`bivouac_players_connected{kind="guest"} 2`,
		`bivouac_players_connected{kind="plain"} 1`,
		`bivouac_tables{game="grizzled",state="playing"} 2`,
		`bivouac_tables{game="werewolf",state="waiting"} 1`,
		`bivouac_sessions_refused_total{reason="gate"} 2`,
		`bivouac_sessions_refused_total{reason="ban"} 1`,
		`bivouac_sessions_refused_total{reason="full"} 0`,
		`bivouac_moderation_actions_total{action="mute"} 0`,
		`bivouac_sessions_refused_total{reason="other"} 1`,
		`bivouac_moves_total 2`,
		`bivouac_move_duration_seconds_bucket{le="0.005"} 1`,
		`bivouac_move_duration_seconds_count 2`,
		`bivouac_store_write_duration_seconds_count{op="append"} 1`,
		`bivouac_store_write_duration_seconds_count{op="put_room"} 1`,
		`bivouac_moderation_actions_total{action="ban"} 1`,
		`bivouac_moderation_actions_total{action="report"} 1`,
		`bivouac_cluster_lease_takeovers_total 1`,
		`bivouac_ready 0`,
		`bivouac_cluster_nodes 3`,
		`bivouac_cluster_ready 0`,
		`bivouac_frames_total 7`,
		`go_goroutines `,
		`process_resident_memory_bytes `,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scrape lacks %q", want)
		}
	}
}

// TestSingleNodeHasNoClusterMetrics: a node not in a cluster says nothing
// of one, rather than a misleading zero.
func TestSingleNodeHasNoClusterMetrics(t *testing.T) {
	out := scrape(t, New(Sources{Ready: func() error { return nil }}))
	if strings.Contains(out, "bivouac_cluster_nodes") || strings.Contains(out, "bivouac_cluster_ready") {
		t.Errorf("a single node reports cluster metrics:\n%s", out)
	}
	if !strings.Contains(out, "bivouac_ready 1") {
		t.Errorf("a ready node does not say so")
	}
}

// TestPromtool runs Prometheus's own linter on a scrape (names, units,
// _total suffixes, help texts), where promtool is installed.
func TestPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not on PATH (Debian: apt-get install prometheus)")
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(scrape(t, busy()))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out.String())
	}
}
