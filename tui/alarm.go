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
	changed chan struct{} // has a value when tick changed since the pump took it
}

func newSessionAlarm() *sessionAlarm {
	return &sessionAlarm{changed: make(chan struct{}, 1)}
}

// Set replaces the tick on its way. It never blocks.
func (a *sessionAlarm) Set(t uikit.Tick) {
	a.mu.Lock()
	a.tick = t
	a.mu.Unlock()
	select {
	case a.changed <- struct{}{}:
	default: // the pump has yet to take the last change: it takes this one
	}
}

// take is the tick to deliver now that changed said so.
func (a *sessionAlarm) take() uikit.Tick {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.tick
}
