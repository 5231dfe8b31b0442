package tui

import (
	"sync"

	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// sessionAlarm is a session's one timer for its table screen
// (uikit.Alarm): the program sets the next tick, and the pump waits for it
// on a runtime timer and hands it to the program. A countdown then costs
// no goroutine asleep per session while it shows, nor a new one at each
// of its steps (a tea.Tick each).
type sessionAlarm struct {
	mu      sync.Mutex
	tick    uikit.Tick    // the tick to deliver; zero When: none
	dirty   bool          // tick changed since the pump took it
	changed chan struct{} // the pump's wake (one slot): signalled when tick changed, and for the pump's other flags
}

func newSessionAlarm() *sessionAlarm {
	return &sessionAlarm{changed: make(chan struct{}, 1)}
}

// Set replaces the tick on its way. It never blocks.
func (a *sessionAlarm) Set(t uikit.Tick) {
	a.mu.Lock()
	a.tick, a.dirty = t, true
	a.mu.Unlock()
	select {
	case a.changed <- struct{}{}:
	default: // the pump has yet to take the last change: it takes this one
	}
}

// takeChanged is the tick to deliver, if it changed since the pump last
// took it.
func (a *sessionAlarm) takeChanged() (uikit.Tick, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	changed := a.dirty
	a.dirty = false
	return a.tick, changed
}
