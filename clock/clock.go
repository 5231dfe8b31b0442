// Package clock is where the server reads the time and sets its alarms:
// a room's timed steps, takeovers and idle closing (table), a lease's
// renewals and deadlines (cluster/lease). Code that waits on time takes a
// Clock, so tests move a manual one (clocktest) instead of sleeping.
package clock

import "time"

// Clock tells the time and calls back when some has passed.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed, unless the timer is stopped
	// first: on its own goroutine with System, in the goroutine that
	// advances a test's clock with clocktest.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call if it has not started; it reports whether it did.
	Stop() bool
}

// System is the process's clock.
type System struct{}

// Now reads the wall clock together with its monotonic reading; time.Time.Sub
// uses the monotonic part, so a step of the wall clock moves no deadline.
func (System) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (System) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
