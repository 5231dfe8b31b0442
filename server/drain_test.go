package server

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
)

// A rolling upgrade of two nodes: node 1 drains with a table mid-game
// (alice plays at it on node 1, then opens a screen there, which sits her
// back at it; bob plays through node 2); another node runs the table with
// every move, alice's screen is told its ssh line, the lobby guest on
// node 1 another node's; bob is kept at the table, seated again where it
// runs now, and both play on. Node 1 comes back, and the table's new
// node drains in turn: the table moves again with every move.
func TestClusterDrainHandsTablesOver(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("3 embedded NATS nodes, two drains and a restart: about 30 s")
	}
	c := startTestCluster(t, 3)
	aliceKey := sshtest.NewKey(t)
	alice := table.Player{ID: sshtest.Fingerprint(aliceKey), Name: "alice"}
	bob := table.Player{ID: "fp-bob", Name: "bob"}
	room := newGrizzledRoom(t, c.nodes[0], alice.ID)
	code := room.Code()
	a, b := sit(t, room, alice), sit(t, roomVia(t, c.nodes[1], code), bob)
	start(t, room, a)
	seq := playMoves(t, []*seated{a, b}, 0, 6)

	screen := sshtest.Dial(t, c.nodes[0].addr, sshtest.WithKey(aliceKey), sshtest.WithUser("alice"), sshtest.WithPTY(240, 30))
	guest := sshtest.Dial(t, c.nodes[0].addr, sshtest.WithUser("carol"), sshtest.WithPTY(240, 30))
	clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		if n := len(c.nodes[0].srv.live.List(nil)); n != 2 {
			return fmt.Errorf("%d sessions on node 1, want 2", n)
		}
		return nil
	})

	h := drainOne(t, c, 0, code)
	to := nodeIndex(t, c, h.Node)
	if got := len(mustLog(t, c.nodes[to], code)); got != seq {
		t.Fatalf("after the drain the log holds %d moves, want %d", got, seq)
	}
	screen.Expect(t, `table `+code+` carries on on another node: connect with `+regexp.QuoteMeta(h.Join), 10*time.Second)
	screen.Wait(t, 10*time.Second)
	guest.Expect(t, `Connect to another node: ssh -p \d+ localhost`, 10*time.Second)
	guest.Wait(t, 10*time.Second)
	// (alice's screen took her seat over from her mailbox when it opened.)
	// bob, through node 2, is kept at the table: seated again at its new
	// node with no join of his own. alice comes back through the node
	// that does not run the table and sits where she sat; both play on.
	other := 3 - to
	a2 := sit(t, roomVia(t, c.nodes[other], code), alice)
	if a2.seat != a.seat {
		t.Fatalf("alice's seat after the drain: %d, want %d", a2.seat, a.seat)
	}
	seq = playMoves(t, []*seated{a2, b}, seq, 4)

	// Node 1, upgraded, comes back; then the table's node drains.
	if err := c.start(0); err != nil {
		t.Fatal(err)
	}
	c.caughtUp(0, time.Minute)
	h = drainOne(t, c, to, code)
	if got := len(mustLog(t, c.nodes[nodeIndex(t, c, h.Node)], code)); got != seq {
		t.Fatalf("after the second drain the log holds %d moves, want %d", got, seq)
	}
}

// drainOne drains node i, checks that it handed every table it ran to a
// live node and stopped, and returns the handover of room code. A drain
// refused for want of a majority left changes nothing and is asked
// again, as an operator would: a node just started is a live peer only
// once its Serve has put its ssh line in the node directory.
func drainOne(t *testing.T, c *testCluster, i int, code string) node.Handover {
	t.Helper()
	var ran []string
	for _, r := range c.nodes[i].srv.hub.Locals() {
		ran = append(ran, r.Code())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var began time.Time
	var rep node.DrainReport
	clocktest.CheckFor(t, time.Minute, 50*time.Millisecond, func() error {
		began = time.Now()
		var err error
		rep, err = c.nodes[i].srv.Drain(ctx, node.DrainOptions{}, nil)
		if errors.Is(err, node.ErrNoMajorityLeft) {
			return fmt.Errorf("drain of node %d: %w", i+1, err)
		}
		if err != nil {
			t.Fatalf("drain of node %d: %v", i+1, err)
		}
		return nil
	})
	t.Logf("node %d drained in %v: %d tables, %d sessions told", i+1, time.Since(began), len(rep.Tables), rep.Told)
	// Every table the node ran is handed over (every table of the test is
	// unfinished). The node's tables may change between this count and
	// the drain's own, on a machine loaded enough that a lease lapses: a
	// table that moved away meanwhile must run on a live node, and one
	// that came in (an adoption the drain waited for) is in the report.
	for _, code := range ran {
		if slices.ContainsFunc(rep.Tables, func(h node.Handover) bool { return h.Room == code }) {
			continue
		}
		at := slices.IndexFunc(c.nodes, func(n *testNode) bool { return n != nil && n != c.nodes[i] && n.srv.hub.Local(code) != nil })
		if at < 0 {
			t.Fatalf("node %d ran table %s before its drain, handed it to nobody, and no other node runs it (handed %d tables, ran %v)",
				i+1, code, len(rep.Tables), ran)
		}
		t.Logf("table %s moved from node %d to node %d before the drain began", code, i+1, at+1)
	}
	var mine node.Handover
	for _, h := range rep.Tables {
		t.Logf("  table %s → %s (%s) in %v", h.Room, h.Node, h.Join, h.Took)
		if h.Err != nil {
			t.Fatalf("table %s not handed over: %v", h.Room, h.Err)
		}
		to := nodeIndex(t, c, h.Node)
		if to == i || c.nodes[to].srv.hub.Local(h.Room) == nil {
			t.Fatalf("table %s handed to node %d, which does not run it", h.Room, to+1)
		}
		if h.Join != c.nodes[to].srv.app.JoinHint {
			t.Fatalf("table %s: players told %q, node %s answers on %q", h.Room, h.Join, h.Node, c.nodes[to].srv.app.JoinHint)
		}
		if h.Room == code {
			mine = h
		}
	}
	if mine.Room == "" {
		t.Fatalf("node %d did not hand table %s over", i+1, code)
	}
	select {
	case <-c.nodes[i].srv.Drained():
	default:
		t.Fatalf("node %d still runs after its drain", i+1)
	}
	return mine
}

// nodeIndex is the index of the node with ID id ("n2" → 1).
func nodeIndex(t *testing.T, c *testCluster, id string) int {
	t.Helper()
	for i, n := range c.nodes {
		if n != nil && n.cfg.Cluster.Node == id {
			return i
		}
	}
	t.Fatalf("no node %q", id)
	return -1
}

// A single node has nowhere to drain to and says so; a draining node
// refuses every new session with another node's ssh line, in the
// session's language.
func TestDrainingNodeRefusesSessions(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	if _, err := srv.Drain(context.Background(), node.DrainOptions{}, nil); err == nil || srv.Draining() {
		t.Fatalf("a single node drained (err %v, draining %v)", err, srv.Draining())
	}
	srv.drainingTo = func() string { return "ssh -p 2299 elsewhere.example" } // as a draining node's Refusal says
	if got := refusal(t, addr); !strings.Contains(got, "Connect to another node: ssh -p 2299 elsewhere.example") {
		t.Fatalf("refusal while draining: %q", got)
	}
	if got := refusal(t, addr, sshtest.WithEnv("LANG", "de_DE.UTF-8")); !strings.Contains(got, "Verbinde dich mit einem anderen Knoten: ssh -p 2299 elsewhere.example") {
		t.Fatalf("German refusal while draining: %q", got)
	}
}
