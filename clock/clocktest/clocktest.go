// Package clocktest is a clock.Clock that moves only when a test says, so
// timed behaviour is tested without sleeping.
package clocktest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
)

// Manual is a clock.Clock that moves only on Advance. Due callbacks run in
// the goroutine that calls Advance, in deadline order, each at its own
// instant: when Advance returns, everything due by then has run.
type Manual struct {
	mu      sync.Mutex
	now     time.Time
	seq     int // orders timers due at the same instant by when they were set
	pending []*timer
	added   chan struct{} // signalled on every AfterFunc
}

type timer struct {
	c       *Manual
	at      time.Time
	seq     int
	f       func()
	stopped bool // or run
}

// Epoch is the time a New clock starts at.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// New is a Manual clock at Epoch.
func New() *Manual { return NewAt(Epoch) }

// NewAt is a Manual clock at t.
func NewAt(t time.Time) *Manual { return &Manual{now: t, added: make(chan struct{}, 1)} }

var _ clock.Clock = (*Manual)(nil)

// Now is the clock's time.
func (c *Manual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc sets a timer that Advance runs once d has passed.
func (c *Manual) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.mu.Lock()
	c.seq++
	t := &timer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.pending = append(c.pending, t)
	c.mu.Unlock()
	select {
	case c.added <- struct{}{}:
	default:
	}
	return t
}

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// Advance moves the clock forward by d, running each callback due on the
// way at its own instant (one set meanwhile for a time before the end runs
// too).
func (c *Manual) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		c.pending = slices.DeleteFunc(c.pending, func(t *timer) bool { return t.stopped })
		slices.SortFunc(c.pending, func(a, b *timer) int {
			if n := a.at.Compare(b.at); n != 0 {
				return n
			}
			return a.seq - b.seq
		})
		if len(c.pending) == 0 || c.pending[0].at.After(end) {
			c.now = end
			c.mu.Unlock()
			return
		}
		next := c.pending[0]
		c.pending = c.pending[1:]
		if next.at.After(c.now) {
			c.now = next.at
		}
		next.stopped = true
		c.mu.Unlock()
		next.f()
	}
}

// Live counts the timers set and neither stopped nor run.
func (c *Manual) Live() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.pending {
		if !t.stopped {
			n++
		}
	}
	return n
}

// waitLimit bounds WaitTimers in real time: a goroutine that has not set
// its timer by then never will.
const waitLimit = 10 * time.Second

// WaitTimers waits until at least n timers are live: the goroutines under
// test have got to where they wait on the clock. It fails t after
// waitLimit of real time.
func (c *Manual) WaitTimers(t testing.TB, n int) {
	t.Helper()
	limit := time.NewTimer(waitLimit)
	defer limit.Stop()
	for c.Live() < n {
		select {
		case <-c.added:
		case <-limit.C:
			t.Fatalf("clocktest: %d timers set, want %d", c.Live(), n)
		}
	}
}
