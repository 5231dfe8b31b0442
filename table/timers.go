package table

// Timers: the game's timed steps, on the room's clock. A step's deadline
// is saved with the room when the step begins, so a restart gives the step
// back the time it had left (not a fresh window), and a night keeps its
// public schedule.

import (
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// RestartGrace is added to a timed step resumed after a restart: the same
// few seconds for everyone at the table, to find their place again.
const RestartGrace = 5 * time.Second

func (r *Room) armTimer() {
	t, ok := r.cfg.Game.Timer(r.state)
	if !ok {
		r.stopTimers()
		return
	}
	if t.ID == r.timerID && r.timer != nil {
		return
	}
	if r.timer != nil {
		r.timer.Stop()
	}
	after := r.resumed(t)
	if r.byCorrespondence() {
		// The log says when the step began; its end follows, whenever the
		// room was restored (at once if it has passed).
		r.resume = nil
		after = max(r.timedDeadline(t).Sub(r.clock.Now()), 0)
	}
	r.timerID, r.timerEnd = t.ID, r.clock.Now().Add(after)
	id, action := t.ID, t.Action
	r.timer = r.clock.AfterFunc(after, func() { r.retrySubmit(command{kind: cmdTimer, id: id, action: action}) })
	r.save() // the deadline is part of the room's record
}

// resumed is how long step t runs: its whole window, or for the step a
// restored room was in, what it had left when the server stopped plus
// RestartGrace.
func (r *Room) resumed(t game.Timer) time.Duration {
	saved := r.resume
	r.resume = nil
	if saved == nil || saved.ID != t.ID {
		return t.After
	}
	stopped := r.cfg.Stopped
	if stopped.IsZero() {
		stopped = r.clock.Now()
	}
	left := min(max(saved.Deadline.Sub(stopped), 0), t.After)
	return left + RestartGrace
}

func (r *Room) stopTimers() {
	if r.timer != nil {
		r.timer.Stop()
		r.timer, r.timerID = nil, 0
	}
}
