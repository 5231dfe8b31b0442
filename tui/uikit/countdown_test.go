package uikit

import (
	"testing"
	"time"
)

func TestCountdown(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var c Countdown
	if c.Left(t0) != 0 || c.Next(t0) != 0 {
		t.Fatal("an unset countdown counts")
	}
	c.Set(10, t0, false)
	for _, tc := range []struct {
		at   time.Duration
		left int
		next time.Duration
	}{
		{0, 10, time.Second + 5*time.Millisecond},
		{300 * time.Millisecond, 10, 700*time.Millisecond + 5*time.Millisecond},
		{time.Second, 9, time.Second + 5*time.Millisecond},
		{9500 * time.Millisecond, 1, 500*time.Millisecond + 5*time.Millisecond},
		{10 * time.Second, 0, 0},
		{11 * time.Second, 0, 0},
	} {
		now := t0.Add(tc.at)
		if l, n := c.Left(now), c.Next(now); l != tc.left || n != tc.next {
			t.Errorf("at +%v: left %d next %v, want %d and %v", tc.at, l, n, tc.left, tc.next)
		}
	}
	// Within a step, an Update's rounded deadline does not move the count.
	c.Set(9, t0.Add(1300*time.Millisecond), true) // 10.3 s: within 2 s of 10 s
	if l := c.Left(t0.Add(9500 * time.Millisecond)); l != 1 {
		t.Errorf("a same-step update moved the countdown: %d left", l)
	}
	c.Set(30, t0.Add(time.Second), true) // a real change: taken
	if l := c.Left(t0.Add(time.Second)); l != 30 {
		t.Errorf("a new deadline was not taken: %d", l)
	}
	c.Set(0, t0, true)
	if c.Left(t0) != 0 {
		t.Error("no timer, yet a count")
	}
}

// Above 30 s the count goes in tens, above 20 s in fives, and it redraws
// only when it drops.
func TestCountdownInStepsAbove20s(t *testing.T) {
	t0 := time.Unix(2000, 0)
	var c Countdown
	c.Set(90, t0, false)
	for _, tc := range []struct {
		at    time.Duration
		shown int
		next  time.Duration
	}{
		{0, 90, 10*time.Second + 5*time.Millisecond},
		{3 * time.Second, 90, 7*time.Second + 5*time.Millisecond},
		{5 * time.Second, 90, 5*time.Second + 5*time.Millisecond},
		{10 * time.Second, 80, 10*time.Second + 5*time.Millisecond},
		{59 * time.Second, 40, time.Second + 5*time.Millisecond},
		{60 * time.Second, 30, 5*time.Second + 5*time.Millisecond},
		{67 * time.Second, 25, 3*time.Second + 5*time.Millisecond},
		{70 * time.Second, 20, time.Second + 5*time.Millisecond},
		{70500 * time.Millisecond, 20, 500*time.Millisecond + 5*time.Millisecond},
		{89 * time.Second, 1, time.Second + 5*time.Millisecond},
	} {
		now := t0.Add(tc.at)
		if s, n := c.Shown(now), c.Next(now); s != tc.shown || n != tc.next {
			t.Errorf("at +%v: shows %d, next in %v; want %d and %v", tc.at, s, n, tc.shown, tc.next)
		}
	}
	// Redraws over a whole 90 s timer: 6 in tens, 2 in fives, 20 in seconds.
	redraws, at := 0, t0
	for next := c.Next(at); next > 0; next = c.Next(at) {
		at = at.Add(next)
		redraws++
	}
	if redraws != 28 {
		t.Errorf("%d redraws over 90 s, want 28", redraws)
	}
	// A timer is never shown with more than it had: 45 s starts at 45.
	c.Set(45, t0, false)
	for _, tc := range []struct {
		at    time.Duration
		shown int
	}{{0, 45}, {4 * time.Second, 45}, {5 * time.Second, 40}, {15 * time.Second, 30}} {
		if s := c.Shown(t0.Add(tc.at)); s != tc.shown {
			t.Errorf("45 s timer at +%v: shows %d, want %d", tc.at, s, tc.shown)
		}
	}
}
