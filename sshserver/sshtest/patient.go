package sshtest

import "time"

// Patient is how long a wait for the server (Expect, ExpectScreen,
// NextScreen, Wait) really lasts: the time a test names, times patience.
// A wait's bound only decides when a failing test gives up; the race
// detector makes the server several times slower, and CI runs it beside
// the other packages' tests on two cores, where screens that take
// milliseconds alone took over 5 s.
func Patient(d time.Duration) time.Duration { return d * patience }
