package table

// The calls a session (or a timer) makes on a room: each becomes a command
// in the actor's inbox, answered at once or waited for.

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// submit hands c to the actor without waiting: a full inbox is ErrBusy.
func (r *Room) submit(c command) error {
	if r.away != nil {
		return r.away
	}
	select {
	case <-r.done:
		return ErrClosed
	default:
	}
	select {
	case r.inbox <- c:
		return nil
	default:
		return ErrBusy
	}
}

// CallPatience is how long a session waits for a room's answer to a call
// (a join, a start) before it tells its player the table is busy. A busy
// room answers late, never not at all: at 10,000 players a collector's
// mark and the queue behind it held joins for over 3 s, and a player was
// told "timed out" about a table that was there and then seated them
// anyway. Long past any such wait, short of a room that truly hangs.
const CallPatience = 30 * time.Second

// call submits c and waits for the actor's answer (or ctx). A call whose
// caller stopped waiting is not carried out: the actor claims a call
// before it acts on it, and a caller whose ctx ends first withdraws it
// (ErrBusy: nothing changed, try again); once the actor has claimed it,
// the caller waits for the answer, which is on its way.
func (r *Room) call(ctx context.Context, c command) error {
	c.reply = make(chan error, 1)
	c.claim = new(atomic.Int32)
	if err := r.submit(c); err != nil {
		return err
	}
	select {
	case err := <-c.reply:
		return err
	case <-r.done:
		return ErrClosed
	case <-ctx.Done():
		if c.claim.CompareAndSwap(callWaiting, callWithdrawn) {
			return ErrBusy
		}
	}
	select {
	case err := <-c.reply:
		return err
	case <-r.done:
		return ErrClosed
	}
}

// A call's claim: waiting in the inbox, claimed by the actor, or
// withdrawn by its caller.
const (
	callWaiting int32 = iota
	callClaimed
	callWithdrawn
)

// claimed reports whether the actor may act on c: not a call, or a call
// whose caller still waits (it cannot withdraw it from now on).
func (c command) claimed() bool {
	return c.claim == nil || c.claim.CompareAndSwap(callWaiting, callClaimed)
}

// Join attaches a session: it takes the player's own seat back, or an open
// seat, or (watch, or when no seat is free and the game has started) watches.
// The session's Updates arrive in box from now on.
func (r *Room) Join(ctx context.Context, p Player, box *Mailbox, watch bool) (game.Seat, error) {
	c := command{kind: cmdJoin, player: p, box: box, watch: watch, seatCh: make(chan game.Seat, 1)}
	if err := r.call(ctx, c); err != nil {
		return game.Spectator, err
	}
	return <-c.seatCh, nil
}

// Leave gives up the session's seat for good (a bot may take it over) and detaches.
func (r *Room) Leave(box *Mailbox) error { return r.submit(command{kind: cmdLeave, box: box}) }

// Detach tells the room a session has gone (disconnected); its seat stays its own.
func (r *Room) Detach(box *Mailbox) error { return r.submit(command{kind: cmdDetach, box: box}) }

// StepAway is Detach for a player who left on purpose (to the lobby, or
// quitting): the seat is kept just the same, and the table is told so
// rather than that the connection was lost.
func (r *Room) StepAway(box *Mailbox) error { return r.submit(command{kind: cmdStepAway, box: box}) }

// Act submits a game action made on the view numbered seq.
func (r *Room) Act(box *Mailbox, seq int, a game.Action) error {
	return r.submit(command{kind: cmdAct, box: box, seq: seq, action: a})
}

// ActNow is Act for a caller that waits for the outcome (plain mode, where
// the answer to a move is what it did): it returns once the action is
// durable and the view after it is in box, or with the refusal as its error
// rather than as a notice.
func (r *Room) ActNow(ctx context.Context, box *Mailbox, seq int, a game.Action) error {
	return r.call(ctx, command{kind: cmdAct, box: box, seq: seq, action: a})
}

// Say submits a chat line.
func (r *Room) Say(box *Mailbox, text string) error {
	return r.submit(command{kind: cmdSay, box: box, text: text})
}

// Start begins the game (host only); empty seats are filled with bots.
func (r *Room) Start(ctx context.Context, box *Mailbox) error {
	return r.call(ctx, command{kind: cmdStart, box: box})
}

// SetBot puts a bot of level in an open seat, or clears it (level "") (host only).
func (r *Room) SetBot(ctx context.Context, box *Mailbox, seat game.Seat, level string) error {
	return r.call(ctx, command{kind: cmdSetBot, box: box, seat: seat, level: level})
}

// Pick sets the session's own choice before the game (game.Prelude: a
// Grizzled soldier); "" leaves it to the draw. A refusal (taken, started)
// comes back as the session's notice.
func (r *Room) Pick(box *Mailbox, id string) error {
	return r.submit(command{kind: cmdPick, box: box, text: id})
}

// NameFirst is the host naming the seat that begins (game.Prelude), or
// game.NoSeat for the draw.
func (r *Room) NameFirst(box *Mailbox, seat game.Seat) error {
	return r.submit(command{kind: cmdNameFirst, box: box, seat: seat})
}

// Close stops the room, telling every session why. A wedged actor is
// stopped after a second of real time: the room's clock may be a test's,
// which nothing advances while the actor is stuck.
func (r *Room) Close(reason CloseReason) {
	select {
	case r.inbox <- command{kind: cmdClose, reason: reason}:
	case <-r.done:
	case <-time.After(time.Second):
		r.stop() // the actor is wedged; stop it anyway
	}
}

// retrySubmit is for timer goroutines: it keeps trying while the inbox is
// full, and gives up when the room is gone. It waits in real time: the
// actor drains the inbox at its own pace, and with a test's manual clock
// this runs inside Advance, which would wait for itself.
func (r *Room) retrySubmit(c command) {
	for {
		switch err := r.submit(c); err {
		case nil, ErrClosed:
			return
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-r.done:
			return
		}
	}
}
