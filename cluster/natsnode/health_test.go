package natsnode_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
)

// A node is healthy while its cluster has a majority, and says it is not
// within seconds of losing two nodes of three (what /readyz reports).
func TestHealthyFollowsTheMajority(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node cluster takes a few seconds")
	}
	c := natstest.Start(t, 3, nil)
	survivor := c.Nodes[0]
	until := func(what string, within time.Duration, cond func() bool) time.Duration {
		t.Helper()
		began := time.Now()
		clocktest.CheckFor(t, within, 50*time.Millisecond, func() error {
			if !cond() {
				return fmt.Errorf("%s (last: %v)", what, survivor.Healthy())
			}
			return nil
		})
		return time.Since(began)
	}
	until("healthy with all three nodes", 20*time.Second, func() bool { return survivor.Healthy() == nil })
	c.Nodes[1].Shutdown()
	c.Nodes[2].Shutdown()
	took := until("unhealthy without a majority", 20*time.Second, func() bool { return survivor.Healthy() != nil })
	t.Logf("unhealthy %v after losing the majority: %v", took.Round(100*time.Millisecond), survivor.Healthy())
}
