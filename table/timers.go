package table

// Timers: the game's timed steps, on the room's clock.

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
	r.timerID, r.timerEnd = t.ID, r.clock.Now().Add(t.After)
	id, action := t.ID, t.Action
	r.timer = r.clock.AfterFunc(t.After, func() { r.retrySubmit(command{kind: cmdTimer, id: id, action: action}) })
}

func (r *Room) stopTimers() {
	if r.timer != nil {
		r.timer.Stop()
		r.timer, r.timerID = nil, 0
	}
}
