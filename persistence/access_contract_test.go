package persistence_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

func TestBoltAccessContract(t *testing.T) {
	storetest.RunAccess(t, func(t *testing.T, clock func() time.Time) persistence.Store {
		s, err := persistence.Open(filepath.Join(t.TempDir(), "bivouac.db"), persistence.Options{Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
