package natsnode

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The raft timings reached by go:linkname are nats-server's and mean what
// setElections takes them to: their defaults as nats-server documents
// them, its source still declaring them as variables read where a
// follower waits and a leader heartbeats. An upgrade that renames one
// does not build; one that changes them fails here, as does one that
// changes the group lookup StandFor reaches by name.
func TestRaftTimingsAreNATSServers(t *testing.T) {
	if NATSElections != (Elections{Min: 4 * time.Second, Max: 9 * time.Second}) || raftHeartbeat != time.Second {
		t.Fatalf("nats-server's raft timings: elections %v, heartbeat %v; want 4s–9s, 1s (an upgrade changed them: check server/raft.go and DefaultElections)",
			NATSElections, raftHeartbeat)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/nats-io/nats-server/v2").Output()
	if err != nil {
		t.Skipf("nats-server's source not at hand: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "server", "raft.go"))
	if err != nil {
		t.Skipf("nats-server's source not at hand: %v", err)
	}
	for _, decl := range []string{
		`(?m)^\s+minElectionTimeout\s+= minElectionTimeoutDefault$`,
		`(?m)^\s+maxElectionTimeout\s+= maxElectionTimeoutDefault$`,
		`(?m)^\s+hbInterval\s+= hbIntervalDefault$`,
		`delta := rand.Int64N\(int64\(maxElectionTimeout - minElectionTimeout\)\)`,
		`return \(minElectionTimeout \+ time.Duration\(delta\)\)`,
		`hb := time.NewTicker\(hbInterval\)`,
		// StandFor reaches a group's node by name (lost.go).
		`func \(s \*Server\) lookupRaftNode\(group string\) RaftNode \{`,
	} {
		if !regexp.MustCompile(decl).Match(src) {
			t.Errorf("nats-server's server/raft.go no longer has %s: check what setElections sets", decl)
		}
	}
}

// Elections shorter than three heartbeats are raised.
func TestElectionsBounded(t *testing.T) {
	for _, c := range []struct{ in, want Elections }{
		{DefaultElections, DefaultElections},
		{Elections{Min: time.Second, Max: time.Second}, Elections{Min: 3 * time.Second, Max: 4 * time.Second}},
		{Elections{Min: 5 * time.Second, Max: 2 * time.Second}, Elections{Min: 5 * time.Second, Max: 6 * time.Second}},
	} {
		if got := bounded(c.in, time.Second); got != c.want {
			t.Errorf("bounded(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
