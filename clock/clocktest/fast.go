package clocktest

import (
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
)

// Fast is a clock.Clock that runs Factor times faster than the wall clock,
// for an end-to-end test that must let real timers run out (a game's
// phases over SSH) without waiting for them at their real length.
type Fast struct {
	Factor int
	start  time.Time
}

// NewFast is a clock running factor times faster than the wall clock from now.
func NewFast(factor int) *Fast { return &Fast{Factor: factor, start: time.Now()} }

// NewFastFrom is a clock running factor times faster than the wall clock
// from start: two processes given the same start and factor read the same
// time (a test that kills a server and starts another on its data).
func NewFastFrom(start time.Time, factor int) *Fast { return &Fast{Factor: factor, start: start} }

// Now is the start plus Factor times the wall time since.
func (f *Fast) Now() time.Time {
	return f.start.Add(time.Since(f.start) * time.Duration(f.Factor))
}

// AfterFunc calls fn after d/Factor of wall time.
func (f *Fast) AfterFunc(d time.Duration, fn func()) clock.Timer {
	return time.AfterFunc(d/time.Duration(f.Factor), fn)
}
