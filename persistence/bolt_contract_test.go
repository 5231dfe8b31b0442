package persistence_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

func TestBoltContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time) persistence.Store {
		s, err := persistence.Open(filepath.Join(t.TempDir(), "bivouac.db"), persistence.Options{Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func openBench(b *testing.B, delay time.Duration) *persistence.Bolt {
	s, err := persistence.Open(filepath.Join(b.TempDir(), "bench.db"), persistence.Options{BatchDelay: delay})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkAppendBatched: Bolt.Append with fsync on; concurrent callers
// share transactions and fsyncs (the group commit). delay=0 is the
// default; a delay makes a commit wait for company first, as bbolt's
// DB.Batch did (1 ms here before, 10 ms bbolt's own default).
// (persistence/jetstream's BenchmarkAppend is the same on JetStream.)
func BenchmarkAppendBatched(b *testing.B) {
	for _, tables := range []int{1, 64} {
		for _, d := range []time.Duration{0, time.Millisecond} {
			b.Run(fmt.Sprintf("tables=%d/delay=%v", tables, d), func(b *testing.B) {
				s := openBench(b, d)
				storetest.BenchAppend(b, s, tables, s.Append)
			})
		}
	}
}

// BenchmarkAppendUpdateEach: the same checks and write, but one db.Update
// (one commit, one fsync) per action.
func BenchmarkAppendUpdateEach(b *testing.B) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			s := openBench(b, 0)
			storetest.BenchAppend(b, s, tables, s.AppendUpdateEach)
		})
	}
}

// BenchmarkPutRoom: tables saving their records at once (players sitting
// down, timed steps beginning), as 2,000 tables seating players do.
func BenchmarkPutRoom(b *testing.B) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			storetest.BenchPutRoom(b, openBench(b, 0), tables)
		})
	}
}
