package uikit

import "time"

// Countdown is the time left on a table's timer as every game screen shows
// it: above 20 s in fives ("90 s", "85 s"), then second by second; redrawn
// only when the number shown changes, and nothing scheduled while no timer
// runs. (Every screen at a table shows the clock: redrawing hundreds of
// them each second for a number nobody needs exact cost a sixth of a core
// at 500 players.)
type Countdown struct {
	deadline time.Time
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
	c.deadline = d
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

// coarseAbove is where the count goes from fives to seconds.
const coarseAbove = 20

// Shown is the number a screen shows: Left, in fives above 20 s (rounded
// up, so a step shows its whole window when it begins).
func (c *Countdown) Shown(now time.Time) int {
	n := c.Left(now)
	if n > coarseAbove {
		n = (n + 4) / 5 * 5
	}
	return n
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
	if n > coarseAbove {
		// Shown drops by five once no more than Shown-5 seconds are left.
		return d - time.Duration(c.Shown(now)-5)*time.Second + 5*time.Millisecond
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
