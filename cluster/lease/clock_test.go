package lease

import (
	"sort"
	"sync"
	"time"
)

// fakeClock moves only when told to. Due callbacks run in the goroutine that
// calls Advance, in deadline order, so a test that advances it knows every
// renewal and expiry due by then has run when Advance returns.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	seq     int
	pending []*fakeTimer
	added   chan struct{} // signalled on every AfterFunc
}

type fakeTimer struct {
	c       *fakeClock
	at      time.Time
	seq     int
	f       func()
	stopped bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), added: make(chan struct{}, 1)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	c.seq++
	t := &fakeTimer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.pending = append(c.pending, t)
	c.mu.Unlock()
	select {
	case c.added <- struct{}{}:
	default:
	}
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// Advance moves the clock forward by d, running each callback due on the way
// at its own instant.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.Slice(c.pending, func(i, j int) bool {
			a, b := c.pending[i], c.pending[j]
			if !a.at.Equal(b.at) {
				return a.at.Before(b.at)
			}
			return a.seq < b.seq
		})
		var next *fakeTimer
		for len(c.pending) > 0 {
			t := c.pending[0]
			if t.stopped {
				c.pending = c.pending[1:]
				continue
			}
			if !t.at.After(end) {
				next = t
				c.pending = c.pending[1:]
			}
			break
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		if next.at.After(c.now) {
			c.now = next.at
		}
		next.stopped = true
		c.mu.Unlock()
		next.f()
	}
}

// waitTimers blocks until at least n live timers are pending: a goroutine
// under test has reached the point where it waits on the clock.
func (c *fakeClock) waitTimers(n int) {
	for {
		c.mu.Lock()
		live := 0
		for _, t := range c.pending {
			if !t.stopped {
				live++
			}
		}
		c.mu.Unlock()
		if live >= n {
			return
		}
		<-c.added
	}
}
