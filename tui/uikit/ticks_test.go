package uikit

import (
	"testing"
	"time"
)

// TestTicksKeepOneTimer: Updates that move the wish start a timer only
// when the one on its way would come too late; a tick that comes before
// the wish draws nothing.
func TestTicksKeepOneTimer(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	sec := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	var tk Ticks
	if tk.At(t0, sec(5)) == nil {
		t.Fatal("the first wish started no timer")
	}
	first, _ := tk.Next()
	// A move 2 s later: the turn clock starts again, its number changes 7 s
	// from the start. The timer on its way (5 s) comes first: no new one.
	if tk.At(sec(2), sec(7)) != nil {
		t.Error("a later wish started a second timer")
	}
	// A wish before the timer on its way needs its own.
	if tk.At(sec(3), sec(4)) == nil {
		t.Fatal("an earlier wish started no timer")
	}
	early, _ := tk.Next()
	if !early.Due() {
		t.Error("the tick for the 4 s wish is not due")
	}
	tk.Fired(early)
	if tk.At(sec(4), sec(9)) == nil {
		t.Error("after its tick came, the next wish started no timer")
	}
	next, _ := tk.Next()
	tk.Fired(first) // the 5 s tick comes after all, for an older wish
	if first.Due() {
		t.Error("a tick for an older wish is due")
	}
	if tk.At(sec(5), sec(9)) != nil {
		t.Error("the 9 s timer is on its way, yet another started")
	}
	if !next.Due() {
		t.Error("the 9 s tick is not due")
	}
	// No wish: nothing starts, and a tick on its way draws nothing.
	if tk.At(sec(6), time.Time{}) != nil || next.Due() {
		t.Error("without a wish a timer started or a tick is due")
	}
	// A tick that never came back (it went to the chat line) does not
	// stop the next wish from getting a timer.
	if tk.At(sec(6), sec(8)) == nil {
		t.Fatal("no timer for the 8 s wish")
	}
	if tk.At(sec(12), sec(15)) == nil {
		t.Error("the 8 s tick was lost, yet the 15 s wish started no timer")
	}
	var other Ticks
	if next.Of(&other) || !next.Of(&tk) {
		t.Error("a tick is not told apart by its Ticks")
	}
}
