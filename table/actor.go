package table

// The actor: the one goroutine that owns a room's state, taking commands
// from its inbox one at a time.

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// run is the actor: the only goroutine that touches the table's state.
func (r *Room) run(onExit func()) {
	defer close(r.done)
	defer onExit()
	defer r.stopTimers()
	var lost <-chan struct{} // nil, and never ready, without a lease
	if r.cfg.Lease != nil {
		lost = r.cfg.Lease.Lost()
	}
	for {
		select {
		case <-r.ctx.Done():
			r.closeAll(Restarting)
			return
		case <-lost:
			r.log.Warn("room lease lost: another node may run the room now; stopping", "why", leaseErr(r.cfg.Lease))
			r.closeAll(Moved)
			return
		case c := <-r.inbox:
			if !r.handleSafely(c) {
				return
			}
		}
	}
}

// handleSafely runs one command; a panic is logged with its stack and closes
// only this room. It reports whether the actor should go on.
func (r *Room) handleSafely(c command) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("room panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if c.reply != nil {
				c.reply <- game.NewError("table.err.internal")
			}
			r.closeAll(InternalError)
			ok = false
		}
	}()
	r.handle(c)
	return r.closed == Open
}

// owns reports whether this node may change the room now: always on a
// single node; in a cluster, while its lease is valid. A lease may be
// suspended for a while (the cluster electing a leader after losing a
// node): the room then refuses changes (ErrBusy) and goes on, and stops
// only when the lease is lost (run).
func (r *Room) owns() bool {
	return r.cfg.Lease == nil || r.cfg.Lease.Valid()
}

// suspendedRetry is how soon a step the room makes by itself (a timed
// step, a bot's move, a turn clock) is tried again while its lease is
// suspended.
const suspendedRetry = 250 * time.Millisecond

// setsUp reports the commands that change what the room's record keeps
// (who sits where, the game's setup), refused while the lease is suspended.
func (c command) setsUp() bool {
	switch c.kind {
	case cmdJoin, cmdStart, cmdSetBot, cmdPick, cmdNameFirst, cmdRemove:
		return true
	}
	return false
}

// madeByItself reports the commands the room gives itself (timers, bots),
// which a suspended lease postpones rather than refuses: no player is
// there to try again.
func (c command) madeByItself() bool {
	switch c.kind {
	case cmdBotAct, cmdBotSay, cmdTimer, cmdTakeover, cmdTurnClock, cmdIdle, cmdAbandon, cmdCreatorGrace, cmdDeadline, cmdOverdue:
		return true
	}
	return false
}

func leaseErr(l Lease) any {
	if e, ok := l.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

func (r *Room) handle(c command) {
	if !c.claimed() {
		return // its caller stopped waiting: the call is not carried out
	}
	if c.madeByItself() && !r.owns() {
		r.clock.AfterFunc(suspendedRetry, func() { r.retrySubmit(c) })
		return
	}
	if c.setsUp() && !r.owns() {
		// A join or a start is kept in the room's record, which cannot be
		// saved while the lease is suspended: the player tries again.
		if c.kind == cmdJoin {
			c.seatCh <- game.NoSeat
		}
		r.answer(c, ErrBusy)
		return
	}
	var err error
	switch c.kind {
	case cmdJoin:
		var seat game.Seat
		seat, err = r.join(c)
		c.seatCh <- seat
	case cmdLeave:
		r.leave(c.box)
	case cmdDetach:
		r.detach(c.box, false)
	case cmdStepAway:
		r.detach(c.box, true)
	case cmdAct:
		err = r.act(c)
	case cmdBotAct:
		r.botAct(c)
	case cmdBotSay:
		r.botSay(c)
	case cmdSay:
		err = r.say(c)
	case cmdStart:
		err = r.start(c.box)
	case cmdSetBot:
		err = r.setBot(c)
	case cmdRemove:
		err = r.remove(c)
	case cmdGiveUp:
		r.giveUp(c.text)
	case cmdPick:
		err = r.pick(c)
	case cmdNameFirst:
		err = r.nameFirst(c)
	case cmdTimer:
		if r.started && !r.over && c.id == r.timerID && !r.standInsFirst(c.id, c.action) {
			r.timerID = 0
			err = r.apply(game.System, c.action)
		}
	case cmdDeadline:
		r.deadlinePassed(c.seq)
	case cmdOverdue:
		if o := r.corr.overdue; o != nil && o.id == c.id {
			r.endOverdue(true)
		}
	case cmdTakeover:
		r.takeover(c.seat)
	case cmdCreatorGrace:
		r.creatorGraceOver()
	case cmdIdle:
		r.idleTimer = nil
		if len(r.members) == 0 && (!r.started || r.over || r.cfg.Practice) {
			r.closeForGood(Abandoned)
		}
	case cmdAbandon:
		r.abandonIfEmpty()
	case cmdTurnClock:
		r.turnClockRanOut(c.seq)
	case cmdRefresh: // a restored room, nobody at it yet: its closes are armed as for one just left
		r.armAbandon()
		r.armIdle()
		r.afterChange()
	case cmdClose:
		r.closeAll(c.reason)
		if c.reason == ClosedByAdmin {
			r.save() // closed for good: not restored after a restart
		}
	}
	r.answer(c, err)
}

// answer gives c's caller err: the reply it waits for, or, to a session
// that does not wait, a notice on its screen.
func (r *Room) answer(c command, err error) {
	if c.reply != nil {
		c.reply <- err
	} else if err != nil && c.box != nil {
		r.notices[c.box] = notice{msg: noticeOf(err), seq: r.seq}
		r.publishTo(c.box)
	}
}

// notice is why a session's last request was refused. It is about the
// moment it was made: once the game moves on it is no longer shown (a
// "you can't speak at night" must not stay up into the day), unless it is
// sticky (it describes the session's place at the table).
type notice struct {
	msg    game.Msg
	seq    int // actions applied when it was given
	sticky bool
}

// noticeOf is what a player reads of a refusal: the rules' own words, or
// the error's text wrapped for the catalog.
func noticeOf(err error) game.Msg {
	var e *game.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return game.M("ui.error_text", game.Text("Text", err.Error()))
}

func (n notice) current(seq int) game.Msg {
	if n.sticky || n.seq == seq {
		return n.msg
	}
	return game.Msg{}
}
