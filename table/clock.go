package table

import "time"

// Clock is where a room reads the time and sets its alarms: the game's
// timed steps, the takeover of an absent player's seat and the closing of
// an idle table. Rooms use the real clock unless RoomConfig.Clock says
// otherwise; tests move a fake one by hand instead of sleeping.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f on its own goroutine once d has passed, unless the
	// alarm is stopped first.
	AfterFunc(d time.Duration, f func()) Alarm
}

// Alarm is a pending AfterFunc.
type Alarm interface {
	// Stop cancels the alarm; false if it had already gone off or stopped.
	Stop() bool
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                            { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) Alarm { return time.AfterFunc(d, f) }
