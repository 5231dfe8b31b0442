package sim

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tt := range []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{1, 20, 0.0089, 0.2361},
		{0, 0, 0, 1},
	} {
		lo, hi := Wilson(tt.k, tt.n)
		if math.Abs(lo-tt.lo) > 1e-4 || math.Abs(hi-tt.hi) > 1e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

// Every job runs once whatever the number of workers, each worker builds
// its own job, and the ticks add up the games the jobs report.
func TestRunDoesEveryJobOnce(t *testing.T) {
	for _, workers := range []int{1, 3, 50} {
		var calls [20]atomic.Int32
		var made atomic.Int32
		var last atomic.Int64
		ends := 0
		ran := Run(context.Background(), workers, len(calls), func() func(int) int {
			made.Add(1)
			return func(i int) int { calls[i].Add(1); return 2 }
		}, func(done int) {
			if done < 0 {
				ends++
				return
			}
			for {
				old := last.Load()
				if int64(done) <= old || last.CompareAndSwap(old, int64(done)) {
					break
				}
			}
		})
		for i := range calls {
			if calls[i].Load() != 1 || !ran[i] {
				t.Errorf("%d workers: job %d ran %d times (reported %v)", workers, i, calls[i].Load(), ran[i])
			}
		}
		if m := made.Load(); m != int32(min(workers, len(calls))) {
			t.Errorf("%d workers: %d jobs made", workers, m)
		}
		if last.Load() != 40 || ends != 1 {
			t.Errorf("%d workers: ticks reached %d, ended %d times", workers, last.Load(), ends)
		}
	}
}

func TestRunStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := Run(ctx, 2, 5, func() func(int) int { return func(int) int { return 1 } }, func(int) {})
	for i, r := range ran {
		if r {
			t.Errorf("job %d ran after the context ended", i)
		}
	}
}

// Seeds differ from game to game and depend on the batch's seed.
func TestSeedSpreads(t *testing.T) {
	seen := map[uint64]bool{}
	for _, s := range []uint64{1, 2} {
		for i := range 100 {
			seen[Seed(s, i)] = true
		}
	}
	if len(seen) != 200 {
		t.Errorf("%d distinct seeds of 200", len(seen))
	}
}
