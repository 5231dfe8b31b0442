package table

// Recording: the room's durable description, and closing every session.

import (
	"github.com/bivouac-ssh/bivouac/game"
)

func (r *Room) record0() RoomRecord {
	rec := RoomRecord{Code: r.cfg.Code, Game: r.cfg.Game.ID(), Title: r.cfg.Title, GameOptions: r.cfg.GameOptions,
		Seed: r.cfg.Seed, Status: r.status(), Host: r.cfg.Host, Creator: r.creator, Options: r.cfg.Options, Seq: uint64(r.seq), Result: r.result,
		Created: r.created, Updated: r.clock.Now(), First: int(r.first) + 1, Removed: r.removed,
		Started: r.corr.startedAt}
	if r.byCorrespondence() && r.started && !r.over {
		rec.Waiting = r.corr.told
		rec.Deadline, _ = r.turnDeadline()
	}
	if r.timer != nil && r.started && !r.over {
		rec.Timer = &TimerRecord{ID: r.timerID, Deadline: r.timerEnd}
	}
	rec.Setup = game.Setup{Game: rec.Game, Options: r.cfg.GameOptions}
	if r.started {
		rec.Setup = r.setup // with its names, picks and first, as the game began
	}
	for _, s := range r.seats {
		rec.Seats = append(rec.Seats, s.rec)
	}
	return rec
}

func (r *Room) save() {
	if r.cfg.Journal == nil || !r.owns() {
		return
	}
	rec := r.record0()
	if err := r.patiently("the room's record", func() error { return r.cfg.Journal.SaveRoom(rec) }); err != nil {
		r.log.Error("saving room", "err", err)
	}
}

func (r *Room) closeAll(reason CloseReason) {
	if r.closed != Open {
		return
	}
	r.closed = reason
	r.stopTimers()
	r.stopDeadline()
	r.clearOverdue()
	if r.idleTimer != nil {
		r.idleTimer.Stop()
	}
	if r.abandon != nil {
		r.abandon.Stop()
	}
	r.stopTurnClock()
	for box := range r.members {
		box.Put(Update{Room: r.cfg.Code, Closed: reason})
	}
	r.members = map[*Mailbox]member{}
	r.refreshSummary()
	r.stop()
}

// closeForGood closes the room so that it is not restored after a
// restart. A game with a result stays on record (replays, profiles); a
// room without one is forgotten, when the journal can forget, so that its
// record does not hold its code for ever.
func (r *Room) closeForGood(reason CloseReason) {
	r.closeAll(reason)
	if r.result != nil {
		r.save()
		return
	}
	r.forget()
}

// Forgetter is a Journal that can delete a room's record and log.
type Forgetter interface {
	Forget(room string) error
}

func (r *Room) forget() {
	f, ok := r.cfg.Journal.(Forgetter)
	if !ok {
		r.save()
		return
	}
	if !r.owns() {
		return
	}
	if err := r.patiently("forgetting the room", func() error { return f.Forget(r.cfg.Code) }); err != nil {
		r.log.Error("forgetting a closed room", "err", err)
	}
}
