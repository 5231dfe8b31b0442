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

// recordAlarm keeps the ticks set on it, as a session's alarm would.
type recordAlarm struct{ set []Tick }

func (a *recordAlarm) Set(t Tick) { a.set = append(a.set, t) }

// TestTicksFollowTheWishWithAnAlarm: with the session's alarm a wish moves
// the one timer to itself, later or earlier, so the alarm rings only when
// the screen has something new to show: a table moving every 2 s under a
// clock that steps every 10 s gets no tick at all.
func TestTicksFollowTheWishWithAnAlarm(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	sec := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	var a recordAlarm
	var tk Ticks
	tk.Use(&a)
	for move := 0; move < 5; move++ {
		now := sec(2 * move)
		if tk.At(now, now.Add(10*time.Second)) != nil {
			t.Fatal("a wish started a tea.Tick with an alarm in use")
		}
		if n := len(a.set); n != move+1 || !a.set[n-1].When().Equal(now.Add(10*time.Second)) {
			t.Fatalf("after move %d the alarm holds %d ticks, the last for %v; want it at the wish", move, n, a.set[n-1].When())
		}
		if !a.set[len(a.set)-1].Due() {
			t.Fatalf("the tick set for move %d's wish would draw nothing", move)
		}
	}
	// The same wish again leaves the alarm alone; an earlier one moves it.
	tk.At(sec(9), sec(18))
	if len(a.set) != 5 {
		t.Errorf("the same wish set the alarm again (%d sets)", len(a.set))
	}
	tk.At(sec(9), sec(12))
	if last := a.set[len(a.set)-1]; !last.When().Equal(sec(12)) || !last.Due() {
		t.Errorf("an earlier wish left the alarm at %v", last.When())
	}
	// No wish: the alarm is stopped with a zero tick.
	tk.At(sec(10), time.Time{})
	if last := a.set[len(a.set)-1]; !last.When().IsZero() {
		t.Errorf("withdrawing the wish left the alarm at %v", last.When())
	}
	// Once a tick has come nothing is on its way: no wish sets nothing.
	tk.At(sec(10), sec(20))
	tk.Fired(a.set[len(a.set)-1])
	n := len(a.set)
	tk.At(sec(20), time.Time{})
	if len(a.set) != n {
		t.Errorf("with nothing on its way a withdrawn wish set the alarm")
	}
}
