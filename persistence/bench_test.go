package persistence

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// benchAppend runs b.N appends spread over `tables` goroutines, one room
// each, as room actors do, with real fsync. appendFn is the write under
// test, delay the batch delay (0: default). It reports actions/s.
func benchAppend(b *testing.B, tables int, delay time.Duration, appendFn func(s *Bolt, room string, seq uint64, e []byte) error) {
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"), Options{BatchDelay: delay})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rooms := make([]string, tables)
	for i := range rooms {
		rooms[i] = fmt.Sprintf("table%03d", i)
		if _, err := s.PutRoom(testRoom(rooms[i])); err != nil {
			b.Fatal(err)
		}
	}
	payload := make([]byte, 48) // about one encoded action
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for _, room := range rooms {
		wg.Go(func() {
			for seq := uint64(1); next.Add(1) <= int64(b.N); seq++ {
				if err := appendFn(s, room, seq, payload); err != nil {
					failed.Store(&err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "actions/s")
}

// BenchmarkAppendBatched: Bolt.Append, concurrent callers share
// transactions and fsyncs through db.Batch. With one table nobody shares:
// each Append pays the batch delay, the price of batching.
func BenchmarkAppendBatched(b *testing.B) {
	for _, tables := range []int{1, 64} {
		// DefaultBatchDelay, and bbolt's own default for comparison.
		for _, d := range []time.Duration{DefaultBatchDelay, 10 * time.Millisecond} {
			b.Run(fmt.Sprintf("tables=%d/delay=%v", tables, d), func(b *testing.B) {
				benchAppend(b, tables, d, (*Bolt).Append)
			})
		}
	}
}

// BenchmarkAppendUpdateEach: the same checks and write, but one db.Update
// (one commit, one fsync) per action.
func BenchmarkAppendUpdateEach(b *testing.B) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			benchAppend(b, tables, 0, func(s *Bolt, room string, seq uint64, e []byte) error {
				return s.db.Update(func(tx *bolt.Tx) error { return appendTx(tx, room, seq, e) })
			})
		})
	}
}
