package server

import (
	"bytes"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// A client sending window changes as fast as it can write them gets the
// final size drawn, and a handful of redraws, not one per change (12
// sessions sending 20,000 each took 1.3 of 2 cores and wrote 2 MB of
// redraws to each).
func TestAResizeStormIsDrawnAtItsLastSizeOnly(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithUser("storm"), sshtest.WithPTY(80, 24))
	c.ExpectScreen(t, `Tables`, 10*time.Second)
	clears := func() int { return bytes.Count(c.Transcript(), []byte("\x1b[2J")) }
	before := clears()
	start := time.Now()
	const storm = 2000
	for i := range storm {
		c.Resize(100+i%2, 30+i%2)
	}
	c.Resize(120, 40)
	c.ExpectScreen(t, `─{120}`, 10*time.Second) // the lobby's rule spans the final width
	elapsed := time.Since(start)
	redraws := clears() - before
	// One size at once, then one per 50 ms gap while the storm lasts.
	if most := 4 + int(elapsed/(50*time.Millisecond)); redraws > most {
		t.Fatalf("%d window changes in %v made %d redraws, want at most %d", storm+1, elapsed, redraws, most)
	}
	t.Logf("%d window changes in %v: %d redraws", storm+1, elapsed, redraws)
}
