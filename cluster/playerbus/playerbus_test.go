package playerbus_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/cluster/playerbus"
)

// got collects what a node's handler was given.
type got struct {
	mu  sync.Mutex
	all []string
}

func (g *got) add(s string) {
	g.mu.Lock()
	g.all = append(g.all, s)
	g.mu.Unlock()
}

func (g *got) list() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.all...)
}

// nodes starts n buses on a 3-node NATS cluster, one per NATS node.
func nodes(t *testing.T, n int) ([]*playerbus.Bus, []*got) {
	t.Helper()
	c := natstest.Start(t, n, nil)
	var buses []*playerbus.Bus
	var seen []*got
	for i, node := range c.Nodes {
		nc, err := node.Connect()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		b := playerbus.New(nc, fmt.Sprintf("n%d", i+1))
		t.Cleanup(b.Close)
		g := &got{}
		b.Handle("note", func(to, from string, data []byte, reply func([]byte)) {
			g.add(to + " " + from + " " + string(data))
		})
		b.Handle("ask", func(to, from string, data []byte, reply func([]byte)) {
			if reply != nil {
				reply([]byte("here " + to))
			}
		})
		buses, seen = append(buses, b), append(seen, g)
	}
	return buses, seen
}

// A message to a player reaches the nodes where they have a session, once
// each, and no other; the sending node does not hear its own; when the
// last session goes, nothing more comes.
func TestAMessageReachesThePlayersNodesOnly(t *testing.T) {
	buses, seen := nodes(t, 3)
	off2 := buses[1].Here("SHA256:bob+/=")
	off2b := buses[1].Here("SHA256:bob+/=") // a second session on the same node
	off3 := buses[2].Here("SHA256:bob+/=")
	buses[0].Here("SHA256:bob+/=") // the sender's own node serves bob too
	buses[2].Here("SHA256:carol")
	// Route interest takes a moment to reach the other nodes.
	clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		if err := buses[0].Send("SHA256:bob+/=", "note", []byte("hi")); err != nil {
			return err
		}
		if len(seen[1].list()) == 0 || len(seen[2].list()) == 0 {
			return fmt.Errorf("n2 got %v, n3 got %v", seen[1].list(), seen[2].list())
		}
		return nil
	})
	for i := 1; i < 3; i++ {
		for _, g := range seen[i].list() {
			if g != "SHA256:bob+/= n1 hi" {
				t.Errorf("node %d got %q", i+1, g)
			}
		}
	}
	if got := seen[0].list(); len(got) != 0 {
		t.Errorf("the sending node heard itself: %v", got)
	}
	off2()
	off2() // a release twice counts once
	if err := buses[0].Send("SHA256:bob+/=", "note", []byte("still")); err != nil {
		t.Fatal(err)
	}
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if !contains(seen[1].list(), "SHA256:bob+/= n1 still") {
			return fmt.Errorf("n2, with one session of bob left, got %v", seen[1].list())
		}
		return nil
	})
	off2b()
	off3()
	n2, n3 := len(seen[1].list()), len(seen[2].list())
	// Unsubscribing reaches the node's own server first: a message sent
	// through another node after that may still be routed for a moment,
	// so the check waits for a message to carol to arrive behind it.
	_ = buses[0].Send("SHA256:bob+/=", "note", []byte("gone"))
	_ = buses[0].Send("SHA256:carol", "note", []byte("after"))
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if !contains(seen[2].list(), "SHA256:carol n1 after") {
			return fmt.Errorf("carol's message has not come: %v", seen[2].list())
		}
		return nil
	})
	if len(seen[1].list()) != n2 || contains(seen[2].list()[n3:], "SHA256:bob+/= n1 gone") {
		t.Errorf("a node without bob's sessions still got his message: n2 %v, n3 %v", seen[1].list(), seen[2].list())
	}
}

// Ask gets the first answer from a node of the player, and ErrNobody when
// the player has no session anywhere.
func TestAskAnswersOrSaysNobody(t *testing.T) {
	buses, _ := nodes(t, 1)
	if _, err := buses[0].Ask("SHA256:nobody", "ask", nil, time.Second); err != playerbus.ErrNobody {
		t.Errorf("asking a player nowhere: %v, want ErrNobody", err)
	}
}

// twoBuses are two buses on one NATS node, standing for two nodes, whose
// "ask" kind h answers.
func twoBuses(t *testing.T, h playerbus.Handler) []*playerbus.Bus {
	c := natstest.Start(t, 1, nil)
	var bs []*playerbus.Bus
	for i := range 2 {
		nc, err := c.Nodes[0].Connect()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		b := playerbus.New(nc, fmt.Sprintf("n%d", i+1))
		t.Cleanup(b.Close)
		b.Handle("ask", h)
		bs = append(bs, b)
	}
	return bs
}

// Two buses on one NATS node stand for two nodes: the answer comes from
// the other.
func TestAskFromAnotherNode(t *testing.T) {
	bs := twoBuses(t, func(to, from string, data []byte, reply func([]byte)) { reply([]byte(from + " asks about " + to)) })
	bs[1].Here("SHA256:anna")
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		got, err := bs[0].Ask("SHA256:anna", "ask", nil, time.Second)
		if err != nil {
			return err
		}
		if string(got) != "n1 asks about SHA256:anna" {
			t.Fatalf("answer %q", got)
		}
		return nil
	})
}

// A node that listens for the player but does not answer in time is not
// "nobody there": Ask says ErrSilent (an ErrNobody still), so a caller can
// tell a slow node from a player connected nowhere.
func TestAskTellsASilentNodeFromNobody(t *testing.T) {
	bs := twoBuses(t, func(string, string, []byte, func([]byte)) {}) // never answers
	if _, err := bs[0].Ask("SHA256:anna", "ask", nil, time.Second); err != playerbus.ErrNobody {
		t.Fatalf("asking about a player nowhere: %v, want ErrNobody", err)
	}
	bs[1].Here("SHA256:anna")
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		_, err := bs[0].Ask("SHA256:anna", "ask", nil, 50*time.Millisecond)
		if !errors.Is(err, playerbus.ErrSilent) || !errors.Is(err, playerbus.ErrNobody) {
			return fmt.Errorf("asking a node that listens and does not answer: %v, want ErrSilent", err)
		}
		return nil
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
