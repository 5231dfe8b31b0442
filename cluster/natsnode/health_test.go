package natsnode_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
)

// A node serves while it reaches a majority of its cluster: the death of
// the node that led JetStream's metadata leaves the two others serving
// at every look while they elect another (what /readyz reports: a load
// balancer keeps them, issue 41), and the loss of a second node is said
// within moments.
func TestServingFollowsTheMajority(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node cluster takes a few seconds")
	}
	c := natstest.Start(t, 3, nil)
	until := func(n *natsnode.Node, what string, within time.Duration, cond func() bool) time.Duration {
		t.Helper()
		began := time.Now()
		clocktest.CheckFor(t, within, 20*time.Millisecond, func() error {
			if !cond() {
				return fmt.Errorf("%s (last: %v)", what, n.Serving())
			}
			return nil
		})
		return time.Since(began)
	}
	leader := -1
	until(c.Nodes[0], "every node serving, one leading", 20*time.Second, func() bool {
		leader = -1
		for i, n := range c.Nodes {
			if n.Serving() != nil {
				return false
			}
			if n.LeadsMeta() {
				leader = i
			}
		}
		return leader >= 0
	})
	var left []*natsnode.Node
	for i, n := range c.Nodes {
		if i != leader {
			left = append(left, n)
		}
	}
	c.Nodes[leader].Shutdown()
	took := until(left[0], "a new leader", 30*time.Second, func() bool {
		for _, n := range left {
			if err := n.Serving(); err != nil {
				t.Fatalf("%s stopped serving after one node of three died: %v", n.Name(), err)
			}
		}
		return left[0].LeadsMeta() || left[1].LeadsMeta()
	})
	t.Logf("a new metadata leader %v after the old one died; both others served throughout", took.Round(100*time.Millisecond))

	left[1].Shutdown()
	took = until(left[0], "not serving without a majority", 5*time.Second, func() bool { return left[0].Serving() != nil })
	t.Logf("not serving %v after losing the majority: %v", took.Round(100*time.Millisecond), left[0].Serving())
}
