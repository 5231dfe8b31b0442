// Package sim plays batches of bot-only games for `bivouac sim`, whatever
// the game: game i of a batch is seeded from the batch's seed and i alone,
// so a batch's figures do not depend on how many workers played it; a batch
// stops early when its context ends. It reads no clock: timing a batch is
// its caller's business.
package sim

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// Seed is game i's seed in a batch seeded with seed (a splitmix64 step),
// the same whatever the number of workers.
func Seed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Run does jobs 0 to n-1 on up to workers goroutines, each job once, until
// ctx ends. Each worker gets its own job function from newJob (for bots or
// buffers it must not share); a job returns how many games it played, and
// tick is told the running total of games after each job, then -1 once
// every worker has stopped. Run reports which jobs were done.
func Run(ctx context.Context, workers, n int, newJob func() func(i int) int, tick func(done int)) []bool {
	ran := make([]bool, n)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job := newJob()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				games := job(i)
				ran[i] = true
				tick(int(done.Add(int64(games))))
			}
		}()
	}
	wg.Wait()
	tick(-1)
	return ran
}

// Wilson is the 95% Wilson score interval of k successes in n trials;
// with no trials it is [0, 1].
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	mid := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return max(0, mid-half), min(1, mid+half)
}
