package jetstream_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"bivouac/cluster/natsnode/natstest"
	"bivouac/persistence"
	"bivouac/persistence/jetstream"
	"bivouac/persistence/storetest"
)

// The access contract on two nodes: each test's store is reached through
// node 1 or 2 in turn.
func TestAccessContract(t *testing.T) {
	c := natstest.Start(t, 2, nil)
	var n atomic.Int32
	storetest.RunAccess(t, func(t *testing.T, clock func() time.Time) persistence.Store {
		i := int(n.Add(1))
		return open(t, connect(t, c, i), jetstream.Options{Name: fmt.Sprintf("a%d", i), Replicas: 1, Clock: clock})
	})
}
