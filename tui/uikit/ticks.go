package uikit

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Ticks wakes a screen when something on it moves by itself (a countdown,
// a vote being revealed), with one timer on its way at a time.
//
// A screen used to start a timer with every Update and let the timers of
// older Updates fire for nothing: at a table with a turn clock each move
// left a sleeping goroutine per seat and, 5 s later, a frame per seat
// drawn again unchanged, near half the frames drawn while tables played
// (docs/PERFORMANCE.md). Here an Update only moves the wish (At); the timer
// on its way is kept if it comes soon enough, and one that comes before
// the wish (Tick.Due false) draws nothing and makes way for the next.
// The zero value is ready; it belongs to one screen, on its program's
// goroutine.
type Ticks struct {
	due     time.Time // when the screen next changes by itself (zero: it does not)
	pending time.Time // when the earliest timer on its way fires (zero: none)
	alarm   Alarm     // the session's timer (Use); nil: a tea.Tick per timer
}

// Alarm is a session's one timer: Set replaces the tick it will deliver
// (a zero tick: none). A session that has one spares a goroutine asleep
// per countdown (tea.Tick's) for as long as the countdown shows: ten
// thousand of them while tables play, each started anew at every step.
type Alarm interface {
	Set(Tick)
}

// Alarmed is a screen whose timers can go through the session's Alarm.
type Alarmed interface {
	UseAlarm(Alarm)
}

// Use sends t's timers through a instead of a tea.Tick each.
func (t *Ticks) Use(a Alarm) { t.alarm = a }

// Tick is the message of a Ticks timer.
type Tick struct {
	of *Ticks
	at time.Time // when it was set to fire
}

// At wishes the screen woken at at (zero: not at all), in place of the last
// wish. It returns the timer to start, or nil when one on its way comes
// soon enough or nothing is wished (and always nil with an Alarm, which
// is set to the wish instead). A timer whose time has passed counts
// as lost (its tick may have gone elsewhere, as to the chat line while it
// is open).
func (t *Ticks) At(now, at time.Time) tea.Cmd {
	t.due = at
	if t.alarm != nil {
		// Moving the session's one runtime timer costs nothing, so it
		// follows the wish exactly and rings only when the screen changes.
		// Kept early, as a tea.Tick is, it rang every 10 s at every seat of
		// a table moving faster than that: a message boxed in the pump and
		// an Update that drew nothing, a thousand a second at 10,000
		// players, each paying the collector's assist when a mark ran.
		if !at.Equal(t.pending) || (!at.IsZero() && at.Before(now)) { // a past one may have gone elsewhere
			t.pending = at
			t.alarm.Set(Tick{of: t, at: at}) // a zero at stops it
		}
		return nil
	}
	if at.IsZero() || (!t.pending.IsZero() && !t.pending.Before(now) && !t.pending.After(at)) {
		return nil
	}
	t.pending = at
	m := Tick{of: t, at: at}
	return tea.Tick(at.Sub(now), func(time.Time) tea.Msg { return m })
}

// Fired takes one of t's ticks as it comes; the screen then wishes again
// (At) from what it shows.
func (t *Ticks) Fired(m Tick) {
	if m.at.Equal(t.pending) {
		t.pending = time.Time{}
	}
}

// Next is the tick of the timer on its way, as it will come (for tests,
// which do not wait for it).
func (t *Ticks) Next() (Tick, bool) { return Tick{of: t, at: t.pending}, !t.pending.IsZero() }

// When is when m is set to come.
func (m Tick) When() time.Time { return m.at }

// Of reports whether m is one of t's ticks.
func (m Tick) Of(t *Ticks) bool { return m.of == t }

// Due reports whether the screen has something new to show now that m has
// come: its time is the wish's, or later. A tick set for an earlier wish
// comes too early: the screen looks as it did.
func (m Tick) Due() bool { return !m.of.due.IsZero() && !m.at.Before(m.of.due) }
