package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bivouac/persistence"
)

// BenchAppend runs b.N appends spread over `tables` goroutines, one room
// each, as room actors do, and reports actions/s and the mean time an
// actor waits for one append. appendFn is the write under test (s.Append,
// or a variant of it) on the rooms it creates in s.
func BenchAppend(b *testing.B, s persistence.Store, tables int, appendFn func(room string, seq uint64, entry []byte) error) {
	rooms := make([]string, tables)
	for i := range rooms {
		rooms[i] = fmt.Sprintf("bench%03d", i)
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
				if err := appendFn(room, seq, payload); err != nil {
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
	b.ReportMetric(float64(elapsed.Microseconds())*float64(tables)/float64(b.N), "µs/append")
}
