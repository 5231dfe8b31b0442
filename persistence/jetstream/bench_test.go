package jetstream_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/persistence/jetstream"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

// BenchmarkAppend: one room alone (each append waits for its own round
// trip and, on 3 nodes, a majority of replicas) and 64 rooms at once, on
// a single node (with and without an fsync per write) and a 3-node
// loopback cluster.
func BenchmarkAppend(b *testing.B) {
	for _, setup := range []struct {
		nodes int
		sync  bool
	}{{1, false}, {1, true}, {3, false}} {
		nodes := setup.nodes
		c := natstest.Start(b, nodes, func(_ int, cfg *natsnode.Config) { cfg.SyncAlways = setup.sync })
		for _, tables := range []int{1, 64} {
			b.Run(fmt.Sprintf("nodes=%d/fsync=%v/tables=%d", nodes, setup.sync, tables), func(b *testing.B) {
				nc, err := c.Nodes[0].Connect()
				if err != nil {
					b.Fatal(err)
				}
				defer nc.Close()
				s, err := jetstream.Open(context.Background(), nc, jetstream.Options{
					Name: fmt.Sprintf("bench%d-%d-%d", nodes, tables, b.N), Replicas: nodes,
				})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				storetest.BenchAppend(b, s, tables, s.Append)
			})
		}
	}
}
