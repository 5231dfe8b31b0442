package lease

import "time"

// Clock is the node's own clock. The protocol only ever subtracts two
// readings of the same clock, so it needs a monotonic clock, not a
// synchronised one; tests pass a fake to run schedules deterministically.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once, in its own goroutine or in the caller of
	// whatever advances a fake clock, when d has elapsed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call if it has not started; it reports whether it did.
	Stop() bool
}

// SystemClock is the process's monotonic clock.
type SystemClock struct{}

// Now reads the wall clock together with its monotonic reading; time.Time.Sub
// uses the monotonic part, so wall-clock steps do not move lease deadlines.
func (SystemClock) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (SystemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
