package uikit

import "time"

// Countdown is the time left on a table's timer as every game screen shows
// it: above 30 s in tens ("90 s", "80 s"), then in fives to 20 s, then
// second by second; redrawn only when the number shown changes, and
// nothing scheduled while no timer runs. (Every screen at a table shows
// the clock: redrawing hundreds of them each second for a number nobody
// needs exact cost a sixth of a core at 500 players; at 10,000 players the
// redraws in fives still cost a quarter of the CPU a person's pace of play
// takes, and set the tail of every move's fan-out.)
type Countdown struct {
	deadline time.Time
	set      int // the seconds left when deadline was taken: never shown more
}

// Set reads an Update's Deadline: the seconds left when the room published
// it (0: no timer). Within one timed step (sameStep) a deadline less than
// 2 s from the one held is kept: an Update caused by someone's hidden
// action carries the same deadline rounded to a second, and re-reading it
// would make the number jump, a visible sign that someone acted.
func (c *Countdown) Set(seconds int, now time.Time, sameStep bool) {
	var d time.Time
	if seconds > 0 {
		d = now.Add(time.Duration(seconds) * time.Second)
	}
	if sameStep && !d.IsZero() && !c.deadline.IsZero() && absDur(d.Sub(c.deadline)) < 2*time.Second {
		return
	}
	c.deadline, c.set = d, seconds
}

// Stop clears the countdown (the game is over).
func (c *Countdown) Stop() { c.deadline = time.Time{} }

// Left is the whole seconds left, rounded up; 0 when no timer runs.
func (c *Countdown) Left(now time.Time) int {
	if c.deadline.IsZero() {
		return 0
	}
	d := c.deadline.Sub(now)
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// step is how coarsely n seconds left are shown: tens above 30 s, fives
// above 20 s, else seconds.
func step(n int) int {
	switch {
	case n > 30:
		return 10
	case n > 20:
		return 5
	}
	return 1
}

// Shown is the number a screen shows: Left, in steps (rounded up, so a
// step shows its whole window when it begins), and never more than the
// timer had when it was read (a 45 s timer starts at 45, not 50).
func (c *Countdown) Shown(now time.Time) int {
	return min(upTo(c.Left(now)), c.set)
}

// upTo is n seconds rounded up to its step.
func upTo(n int) int {
	st := step(n)
	return (n + st - 1) / st * st
}

// Next is how long until the number shown changes (on the deadline's whole
// seconds, a little after, whenever the Update came); 0 when nothing is
// left to count.
func (c *Countdown) Next(now time.Time) time.Duration {
	n := c.Left(now)
	if n == 0 {
		return 0
	}
	d := c.deadline.Sub(now)
	if st := step(n); st > 1 {
		// Shown drops once no more than the step below are left.
		return d - time.Duration(upTo(n)-st)*time.Second + 5*time.Millisecond
	}
	every := d % time.Second
	if every <= 0 {
		every = time.Second
	}
	return every + 5*time.Millisecond
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
