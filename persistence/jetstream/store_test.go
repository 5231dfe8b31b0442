package jetstream_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/jetstream"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

// openWithin is how long Open may wait for every replicated group to
// have a leader: after a whole cluster restarts, elections take a while.
const openWithin = time.Minute

// connect opens a client to node i of c, closed by t's cleanup.
func connect(t *testing.T, c *natstest.Cluster, i int) *nats.Conn {
	t.Helper()
	nc, err := c.Nodes[i%len(c.Nodes)].Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func open(t *testing.T, nc *nats.Conn, opts jetstream.Options) *jetstream.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), openWithin)
	defer cancel()
	s, err := jetstream.Open(ctx, nc, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// runContract runs the store contract on c: each test gets its own store
// (its own stream and buckets), reached through the nodes in turn.
func runContract(t *testing.T, c *natstest.Cluster, replicas int) {
	var n atomic.Int32
	storetest.Run(t, func(t *testing.T, clock func() time.Time) persistence.Store {
		i := int(n.Add(1))
		return open(t, connect(t, c, i), jetstream.Options{Name: fmt.Sprintf("t%d", i), Replicas: replicas, Clock: clock})
	})
}

func TestContractOnOneNode(t *testing.T) {
	runContract(t, natstest.Start(t, 1, nil), 1)
}

func TestContractOnThreeNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node cluster takes a few seconds")
	}
	runContract(t, natstest.Start(t, 3, nil), 3)
}

// Two stores on different nodes stand for the old owner of a room and the
// node that took it over: the old owner's append of a number the new one
// has used is fenced, whatever its cache of the log's tip says.
func TestAppendIsFencedAcrossNodes(t *testing.T) {
	nodes := 3
	if testing.Short() {
		nodes = 1 // two connections to one node: the same race, less setup
	}
	c := natstest.Start(t, nodes, nil)
	opts := jetstream.Options{Name: "fence", Replicas: min(3, nodes)}
	old := open(t, connect(t, c, 0), opts)
	taker := open(t, connect(t, c, 1), opts)
	if _, err := old.PutRoom(persistence.RoomRecord{ID: "r1", Status: persistence.StatusPlaying}); err != nil {
		t.Fatal(err)
	}
	for seq := uint64(1); seq <= 5; seq++ {
		if err := old.Append("r1", seq, []byte(fmt.Sprint("old ", seq))); err != nil {
			t.Fatal(err)
		}
	}
	// The taker replays the log and carries on; the old owner, cut off
	// meanwhile, still believes action 5 is the tip.
	last, err := taker.LastSeq("r1")
	if err != nil || last != 5 {
		t.Fatalf("LastSeq on the other node = %d, %v; want 5", last, err)
	}
	if err := taker.Append("r1", 6, []byte("taker 6")); err != nil {
		t.Fatal(err)
	}
	if err := old.Append("r1", 6, []byte("old 6")); !errors.Is(err, persistence.ErrFenced) {
		t.Fatalf("the old owner's append of 6: %v; want ErrFenced", err)
	}
	log, err := old.Log("r1")
	if err != nil || len(log) != 6 || string(log[5]) != "taker 6" {
		t.Fatalf("log %q, %v; want 6 entries ending with the taker's", log, err)
	}
}

// Stopping every node and starting them again on the same directories
// loses nothing. On 3 nodes it takes 10-15 s: after a whole cluster
// restarts, each replicated group waits out a raft election timeout (4-9 s
// in nats-server, not configurable) before it has a leader again.
func TestFullClusterRestartKeepsEverything(t *testing.T) {
	nodes := 3
	if testing.Short() {
		nodes = 1
	}
	c := natstest.Start(t, nodes, nil)
	opts := jetstream.Options{Name: "restart", Replicas: min(3, nodes)}
	nc := connect(t, c, 0)
	s := open(t, nc, opts)
	storetest.Fill(t, s)
	if err := s.MarkAlive(time.Date(2026, 11, 25, 11, 0, 0, 7, time.UTC)); err != nil {
		t.Fatal(err)
	}
	before := storetest.Read(t, s)
	s.Close()
	nc.Close()

	c.StopAll()
	c.StartAll()

	s = open(t, connect(t, c, nodes-1), opts)
	after := storetest.Read(t, s)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("the restart changed data:\nbefore %+v\nafter  %+v", before, after)
	}
	after.Check(t, s)
	if alive, err := s.LastAlive(); err != nil || !alive.Equal(time.Date(2026, 11, 25, 11, 0, 0, 7, time.UTC)) {
		t.Fatalf("LastAlive after the restart = %v, %v", alive, err)
	}
}

// Nodes open the store at once as a cluster starts. Each of them reads
// every bucket afterwards: one that bound a bucket while another node's
// new bucket still had direct gets on asked for direct gets for good, and
// got "no responders" once they were off (a node's rooms never reached
// the others' lobbies). Without the fix about one open in four did.
func TestStoresOpenedAtOnceAllRead(t *testing.T) {
	c := natstest.Start(t, 1, nil)
	for round := range 10 {
		stores := make([]*jetstream.Store, 4)
		var wg sync.WaitGroup
		for i := range stores {
			nc := connect(t, c, 0)
			wg.Go(func() { stores[i] = open(t, nc, jetstream.Options{Name: fmt.Sprintf("at-once-%d", round)}) })
		}
		wg.Wait()
		for i, s := range stores {
			reads := map[string]error{}
			_, reads["room"] = s.Room("NONE")
			_, reads["player"] = s.Player("SHA256:none")
			_, reads["campaign"] = s.Campaign("none")
			_, reads["review"] = s.Review("NONE")
			for what, err := range reads {
				if !errors.Is(err, persistence.ErrNotFound) {
					t.Errorf("round %d, store %d: reading a %s nobody stored: %v, want ErrNotFound", round, i, what, err)
				}
			}
		}
	}
}
