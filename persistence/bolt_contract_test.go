package persistence_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"bivouac/persistence"
	"bivouac/persistence/storetest"
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

// BenchmarkBoltAppend is BenchmarkAppend of persistence/jetstream on bbolt,
// for comparison (fsync on, the default batch delay).
func BenchmarkBoltAppend(b *testing.B) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			s, err := persistence.Open(filepath.Join(b.TempDir(), "bivouac.db"), persistence.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.BenchAppend(b, s, tables)
		})
	}
}
