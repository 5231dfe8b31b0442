package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// BenchAppend runs b.N appends spread over `tables` goroutines, one room
// each, as room actors do, and reports actions/s and the mean time an
// actor waits for one append. appendFn is the write under test (s.Append,
// or a variant of it) on the rooms it creates in s.
func BenchAppend(b *testing.B, s persistence.Store, tables int, appendFn func(room string, seq uint64, entry []byte) error) {
	payload := make([]byte, 48) // about one encoded action
	benchTables(b, s, tables, "append", func(room string, seq uint64) error { return appendFn(room, seq, payload) })
}

// BenchPutRoom runs b.N room saves spread over `tables` goroutines, one
// room each, as tables save their records (a player sits down, a timed
// step begins): saves/s and the mean time a table waits for one.
func BenchPutRoom(b *testing.B, s persistence.Store, tables int) {
	benchTables(b, s, tables, "save", func(room string, _ uint64) error {
		_, err := s.PutRoom(testRoom(room))
		return err
	})
}

// benchTables runs b.N calls of op spread over `tables` goroutines, each
// on a room of its own (created first), numbering each goroutine's calls
// from 1, and reports the calls a second and the mean wait for one.
func benchTables(b *testing.B, s persistence.Store, tables int, what string, op func(room string, n uint64) error) {
	rooms := make([]string, tables)
	for i := range rooms {
		rooms[i] = fmt.Sprintf("bench%03d", i)
		if _, err := s.PutRoom(testRoom(rooms[i])); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for _, room := range rooms {
		wg.Go(func() {
			for n := uint64(1); next.Add(1) <= int64(b.N); n++ {
				if err := op(room, n); err != nil {
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
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), what+"s/s")
	b.ReportMetric(float64(elapsed.Microseconds())*float64(tables)/float64(b.N), "µs/"+what)
}
