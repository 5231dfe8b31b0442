// Package lastknown bounds the reads a login makes of the store: each
// read gets a short deadline, and past it the caller is answered from the
// value last read for the same key, kept in memory, while the read goes
// on and refreshes that copy when it answers. In a cluster a login must
// never wait on a node that froze (issue 41: a login's read with no
// deadline of its own held it for 48 s).
package lastknown

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrNoAnswer is a read that did not answer within its deadline, of a key
// with no copy: the caller says it cannot tell now, never that there is
// nothing. It is a context.DeadlineExceeded, as a store's own timeout is.
var ErrNoAnswer = fmt.Errorf("lastknown: the store did not answer in time: %w", context.DeadlineExceeded)

// Copies is a bounded set of last known values by key. The zero value is
// not usable: make one with New.
type Copies[K comparable, V any] struct {
	within time.Duration
	max    int

	mu     sync.Mutex
	values map[K]V
	flying map[K]*read[V] // reads under way, which later callers join
}

type read[V any] struct {
	done chan struct{}
	v    V
	err  error
}

// New keeps up to max copies (the oldest-read are not tracked: one drawn
// at random goes when full) and waits within for each read.
func New[K comparable, V any](within time.Duration, max int) *Copies[K, V] {
	return &Copies[K, V]{within: within, max: max, values: map[K]V{}, flying: map[K]*read[V]{}}
}

// Within is how long Read waits.
func (c *Copies[K, V]) Within() time.Duration { return c.within }

// Read runs f for k (or joins the f for k under way) and waits for it
// Within at most. An answer in time is returned as it is: a value becomes
// k's copy, and an error that says the record is gone (gone(err)) drops
// it. Past the deadline, k's copy is returned with stale true, or
// ErrNoAnswer without one; f goes on, and its answer updates the copy.
func (c *Copies[K, V]) Read(k K, gone func(error) bool, f func() (V, error)) (v V, stale bool, err error) {
	c.mu.Lock()
	r := c.flying[k]
	if r == nil {
		r = &read[V]{done: make(chan struct{})}
		c.flying[k] = r
		go func() {
			r.v, r.err = f()
			c.mu.Lock()
			delete(c.flying, k)
			switch {
			case r.err == nil:
				c.put(k, r.v)
			case gone != nil && gone(r.err):
				delete(c.values, k)
			}
			c.mu.Unlock()
			close(r.done)
		}()
	}
	c.mu.Unlock()
	t := time.NewTimer(c.within)
	defer t.Stop()
	select {
	case <-r.done:
		return r.v, false, r.err
	case <-t.C:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.values[k]; ok {
		return v, true, nil
	}
	return v, false, ErrNoAnswer
}

// Put makes v k's copy (a write that changed it, say).
func (c *Copies[K, V]) Put(k K, v V) {
	c.mu.Lock()
	c.put(k, v)
	c.mu.Unlock()
}

// Forget drops k's copy (a record deleted here).
func (c *Copies[K, V]) Forget(k K) {
	c.mu.Lock()
	delete(c.values, k)
	c.mu.Unlock()
}

func (c *Copies[K, V]) put(k K, v V) {
	if _, ok := c.values[k]; !ok && len(c.values) >= c.max {
		for old := range c.values {
			delete(c.values, old)
			break
		}
	}
	c.values[k] = v
}

// NoAnswer reports whether err is a read that did not answer in time.
func NoAnswer(err error) bool { return errors.Is(err, ErrNoAnswer) }
