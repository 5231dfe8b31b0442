package natsnode

import (
	"sync"
	"time"
	_ "unsafe" // go:linkname: nats-server's raft timings have no option
)

// nats-server's raft timings are package variables of its server package
// (server/raft.go), with no option to set them: every replicated group
// of the process follows them, reading them at each wait. They are
// reached by name; raft_test.go fails when an upgrade of nats-server
// renames them (the build fails) or changes what they mean.
//
//go:linkname raftMinElection github.com/nats-io/nats-server/v2/server.minElectionTimeout
var raftMinElection time.Duration

//go:linkname raftMaxElection github.com/nats-io/nats-server/v2/server.maxElectionTimeout
var raftMaxElection time.Duration

//go:linkname raftHeartbeat github.com/nats-io/nats-server/v2/server.hbInterval
var raftHeartbeat time.Duration

// Elections is how long a follower that hears nothing from its group's
// leader waits before it stands for election: a random time between Min
// and Max. After a node dies, every group it led has no leader for that
// long, and its reads and writes wait.
type Elections struct {
	Min, Max time.Duration
}

// NATSElections are nats-server's own timings (its leaders heartbeat
// every second), as this process started with them.
var NATSElections = Elections{Min: raftMinElection, Max: raftMaxElection}

// DefaultElections are a Bivouac node's: a follower stands after three
// missed heartbeats, not four to nine, so a dead node's groups have
// leaders again within 3–4.5 s, inside the room leases' 4 s, when nothing
// told the others it died (its connections did not close: a machine off;
// a killed process's do, and the others stand at once, StandFor): its
// tables' players then wait 3.9 s (p50) and 4.2 s (worst) for their next
// move, against 7.6 and 8.1 s (docs/PERFORMANCE.md). The price:
// a node paused or starved for 3–4.5 s (not 4–9) makes its groups elect
// anew, and its tables may move (a SIGSTOP of 3.5 s moved 5 of 18; of
// 2.5 s, none): fenced, the players kept at them.
var DefaultElections = Elections{Min: 3 * time.Second, Max: 4500 * time.Millisecond}

var raftMu sync.Mutex

// setElections puts e (zero: DefaultElections) in force for every raft
// group of this process, raised to what bounded allows. It writes only
// when they change: every node of a process sets the same ones before
// its server starts, so the groups running meanwhile read, and never
// race with, a write.
func setElections(e Elections) {
	if e == (Elections{}) {
		e = DefaultElections
	}
	raftMu.Lock()
	defer raftMu.Unlock()
	e = bounded(e, raftHeartbeat)
	if raftMinElection != e.Min {
		raftMinElection = e.Min
	}
	if raftMaxElection != e.Max {
		raftMaxElection = e.Max
	}
}

// bounded is e with Min at least three heartbeats (hb) and Max at least
// a heartbeat over Min: shorter, a follower would stand while its leader
// is merely slow.
func bounded(e Elections, hb time.Duration) Elections {
	e.Min = max(e.Min, 3*hb)
	e.Max = max(e.Max, e.Min+hb)
	return e
}

// CurrentElections are the election timeouts in force.
func CurrentElections() Elections {
	raftMu.Lock()
	defer raftMu.Unlock()
	return Elections{Min: raftMinElection, Max: raftMaxElection}
}
