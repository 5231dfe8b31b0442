package table

// Play: starting the game, applying actions (persisted before anyone
// sees them), chat, and what the table's log keeps.

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game"
)

func (r *Room) start(box *Mailbox) error {
	if !r.isHost(box) {
		return ErrNotHost
	}
	if r.started {
		return ErrStarted
	}
	names := make([]string, len(r.seats))
	for i := range r.seats {
		s := &r.seats[i]
		if s.rec.Identity == "" && s.rec.Bot == "" {
			if r.cfg.Bots == nil || r.cfg.BotLevel == "" {
				return game.Refuse(nil, game.M("table.err.seat_empty", game.Num("N", i+1)))
			}
			s.rec = SeatRecord{Seat: game.Seat(i), Bot: r.cfg.BotLevel, Name: botName(game.Seat(i))}
		}
		names[i] = s.rec.Name
	}
	setup := game.Setup{Game: r.cfg.Game.ID(), Names: names, Options: r.cfg.GameOptions, First: int(r.first) + 1}
	for _, s := range r.seats {
		setup.Picks = append(setup.Picks, s.rec.Pick)
	}
	if !slices.ContainsFunc(setup.Picks, func(p string) bool { return p != "" }) {
		setup.Picks = nil
	}
	st, events, err := r.cfg.Game.New(setup, r.cfg.Seed)
	if err != nil {
		return err
	}
	r.state, r.started, r.setup = st, true, setup
	if r.byCorrespondence() {
		now := r.clock.Now().Truncate(time.Millisecond) // as the log keeps times
		r.corr.startedAt = now
		r.corr.began(now, r.timedStep())
	}
	r.record(events)
	r.save()
	r.afterChange()
	return nil
}

func (r *Room) act(c command) error {
	seat, ok := r.memberSeat(c.box)
	if !ok {
		return ErrClosed
	}
	if seat < 0 {
		return ErrNotSeated
	}
	if !r.started {
		return ErrNotStarted
	}
	if c.seq < r.legalSeq[seat] {
		return ErrStale
	}
	delete(r.notices, c.box)
	began := time.Now() // the meter reports the work a move costs: wall time, whatever the room's clock
	back := r.backInControl(seat)
	delete(r.corr.late, seat) // the player beat their stand-in to it
	err := r.apply(seat, c.action)
	if err != nil && back {
		r.afterChange() // refused, but the seat is the player's again: say so
	}
	if err == nil && r.cfg.Meter != nil {
		r.cfg.Meter.Moved(time.Since(began))
	}
	return err
}

// apply runs one action through the rules, makes it durable, then publishes.
func (r *Room) apply(seat game.Seat, a game.Action) error { return r.applyAs(seat, a, byPlayer) }

// decider is who made a move for a seat.
type decider uint8

const (
	byPlayer  decider = iota // the seat's player (or bot, or the room's timer)
	byStandIn                // a bot for a human seat (the turn clock, a takeover)
	byLate                   // a bot for a human seat whose deadline passed
)

// applyAs is apply; by says who made the move, as the log keeps it.
func (r *Room) applyAs(seat game.Seat, a game.Action, by decider) error {
	if r.over {
		return game.ErrGameOver
	}
	enc, err := r.cfg.Game.EncodeAction(a)
	if err != nil {
		return err
	}
	next, events, err := r.cfg.Game.Apply(r.state, seat, a)
	if err != nil {
		return err
	}
	entry := EncodeEntry(seat, enc)
	switch by {
	case byStandIn:
		entry = EncodeStandIn(seat, enc)
	case byLate:
		entry = EncodeLate(seat, enc)
	}
	if err := r.journal(entry); err != nil {
		return err
	}
	r.state = next
	r.seq++
	if r.byCorrespondence() {
		r.corr.began(r.corr.stamp, r.timedStep())
		if by == byPlayer && seat >= 0 {
			delete(r.corr.misses, seat)
		}
	}
	r.record(events)
	if by == byLate {
		r.decidedLate(seat)
	}
	if res, done := r.cfg.Game.Result(r.state); done && !r.over {
		r.over, r.result = true, &res
		r.save()
		if r.cfg.OnOver != nil {
			over := r.cfg.OnOver(r.record0())
			for i := range r.seats {
				if b, ok := over.Badges[r.seats[i].rec.Identity]; ok && r.seats[i].rec.Identity != "" {
					r.seats[i].rec.Badge = b
				}
			}
			for _, m := range over.Said {
				r.narrate(m)
			}
		}
	}
	r.afterChange()
	return nil
}

// journal appends one entry to the room's log. Nothing is published that
// is not on disk: a failed append halts the room.
func (r *Room) journal(entry []byte) error {
	if !r.owns() {
		return ErrBusy // the lease is suspended: nothing changes; try again
	}
	if r.byCorrespondence() {
		r.corr.stamp = r.clock.Now().Truncate(time.Millisecond)
		entry = EncodeTimed(r.corr.stamp, entry)
	}
	if r.cfg.Journal != nil {
		if err := r.append(entry); err != nil {
			if errors.Is(err, ErrNotOwner) {
				r.log.Warn("another node appended to the room's log first; stopping", "err", err)
				r.closeAll(Moved)
				return ErrClosed
			}
			if errors.Is(err, ErrUnconfirmed) {
				// Not "refused": the store may yet hold the move, and the
				// room resumes from whatever it holds.
				r.log.Error("journal append not confirmed; halting room", "err", err)
				r.closeAll(Unconfirmed)
				return ErrClosed
			}
			r.log.Error("journal append failed; halting room", "err", err)
			r.closeAll(SaveFailed)
			return err
		}
	}
	r.logged++
	return nil
}

// storePatience is how long, in a cluster, the actor keeps trying a write
// the store did not take: the replicated group behind it may be electing a
// leader (4–9 s in NATS after a node dies; a moment when a young cluster
// settles). Trying again is safe: the store takes the same log entry at
// the same number as done, and refuses any other (ErrNotOwner); a record
// is a whole snapshot.
const storePatience = 20 * time.Second

func (r *Room) append(entry []byte) error {
	seq := uint64(r.logged + 1)
	return r.patiently("a move", func() error { return r.cfg.Journal.Append(r.cfg.Code, seq, entry) })
}

// patiently runs write, and in a cluster runs it again while it fails for
// up to storePatience, while this node's lease is valid: once it is not,
// another node may run the room, and a write of ours taken then would
// race it. A write given up on is ErrUnconfirmed: unanswered is not
// refused, the store may have taken it.
func (r *Room) patiently(what string, write func() error) error {
	err := write()
	if err == nil || r.cfg.Lease == nil || errors.Is(err, ErrNotOwner) {
		return err
	}
	r.log.Warn("the store did not take "+what+"; trying again", "err", err)
	for deadline := r.clock.Now().Add(storePatience); r.clock.Now().Before(deadline); {
		if !r.cfg.Lease.Valid() {
			return fmt.Errorf("%w: the lease is suspended (%v)", ErrUnconfirmed, err)
		}
		paused, t := r.pause(storeRetry)
		select {
		case <-r.cfg.Lease.Lost():
			t.Stop()
			return fmt.Errorf("%w: the lease was lost (%v)", ErrNotOwner, err)
		case <-r.ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: stopping (%v)", ErrUnconfirmed, err)
		case <-paused:
		}
		if !r.cfg.Lease.Valid() {
			return fmt.Errorf("%w: the lease is suspended (%v)", ErrUnconfirmed, err)
		}
		if err = write(); err == nil || errors.Is(err, ErrNotOwner) {
			return err
		}
	}
	return fmt.Errorf("%w: %v", ErrUnconfirmed, err)
}

// storeRetry is how often patiently tries a write again.
const storeRetry = 100 * time.Millisecond

// pause is closed after d, or sooner when the lease's validity runs out,
// so that patiently stops trying the moment it does.
func (r *Room) pause(d time.Duration) (<-chan struct{}, clock.Timer) {
	if left := r.cfg.Lease.ValidUntil().Sub(r.clock.Now()); left < d {
		d = max(left, 0)
	}
	ch := make(chan struct{})
	return ch, r.clock.AfterFunc(d, func() { close(ch) })
}

func (r *Room) say(c command) error {
	seat, ok := r.memberSeat(c.box)
	if !ok {
		return ErrClosed
	}
	if seat < 0 {
		return game.NewError("table.err.watchers_silent")
	}
	if r.cfg.MayChat != nil {
		if err := r.cfg.MayChat(r.seats[seat].rec.Identity); err != nil {
			return err
		}
	}
	if !r.started {
		// Before the game the table talk is plain: everyone hears it.
		if err := r.journal(EncodeChat(seat, true, c.text)); err != nil {
			return err
		}
		r.record([]game.Event{tableTalk(seat, c.text)})
		r.afterChange()
		return nil
	}
	return r.sayInGame(seat, c.text)
}

// sayInGame passes a line to the game's chat rules, which say who hears
// it, and keeps it in the log before anyone does.
func (r *Room) sayInGame(seat game.Seat, text string) error {
	if ca, ok := r.cfg.Game.(game.ChatActions); ok {
		if a, ok := ca.ChatAction(r.state, seat, text); ok {
			return r.apply(seat, a) // a line that changes the game is a move
		}
	}
	events, err := r.cfg.Game.Say(r.state, seat, text)
	if err != nil {
		return err
	}
	if err := r.journal(EncodeChat(seat, false, text)); err != nil {
		return err
	}
	r.record(events)
	r.publish()
	return nil
}

// record files events into each audience member's recent log. An event is
// kept once and its audience's logs point to it: a copy per seat would be
// a sixth of the live heap at 2,000 tables (docs/PERFORMANCE.md).
func (r *Room) record(events []game.Event) {
	kept := slices.Clone(events) // the game's slice is not ours to keep
	for i := range kept {
		e := &kept[i]
		e.Msg = r.addressed(e.Msg)
		for s := range r.seats {
			if e.Audience.Includes(game.Seat(s)) {
				r.logs[game.Seat(s)] = r.appendLog(r.logs[game.Seat(s)], e)
				r.logEnds[game.Seat(s)]++
			}
		}
		if e.Audience.All {
			r.logs[game.Spectator] = r.appendLog(r.logs[game.Spectator], e)
			r.logEnds[game.Spectator]++
		}
	}
}

// appendLog adds e to a seat's recent events, dropping the oldest past
// LogSize. The log's array is only ever appended to, never written below
// its length, so the Updates already sent keep their events while sharing
// it (see shared).
func (r *Room) appendLog(l []*game.Event, e *game.Event) []*game.Event {
	if len(l) >= r.cfg.LogSize {
		l = l[len(l)-r.cfg.LogSize+1:]
	}
	return append(l, e)
}

// shared is a seat's recent events as an Update carries them: the room's
// own array, capped so that a reader's append copies it. Each Update used
// to carry a copy (4.8 KB per seat per move at 40 events).
func shared(l []*game.Event) []*game.Event { return l[:len(l):len(l)] }

func (r *Room) narrate(m game.Msg) {
	r.record([]game.Event{{Audience: game.Everyone(), Kind: game.Narration, From: game.NoSeat, Msg: m}})
}

// narrateAbout tells the table that seat's player came or went, to those
// the game lets hear it (game.Presence).
func (r *Room) narrateAbout(seat game.Seat, m game.Msg) {
	aud := game.Everyone()
	if p, ok := r.cfg.Game.(game.Presence); ok && r.started {
		aud = p.PresenceAudience(r.state, seat)
	}
	r.record([]game.Event{{Audience: aud, Kind: game.Narration, From: game.NoSeat, Msg: m}})
}

// afterChange re-arms timers and bots, refreshes the lobby summary and
// publishes the views.
func (r *Room) afterChange() {
	if r.started && !r.over {
		r.trackLegal()
		r.armTimer()
		r.armTurnClock()
		if r.byCorrespondence() {
			r.forgetLate()
			r.armDeadline()
		}
		r.askBots()
	} else {
		r.stopTimers()
		r.stopTurnClock()
		r.stopDeadline()
	}
	r.reportTurn()
	r.refreshSummary()
	r.publish()
}

// trackLegal notes, per seat, when what it may do last changed: a key
// pressed on an older view is refused only if its choices have changed since.
func (r *Room) trackLegal() {
	for i := range r.seats {
		seat := game.Seat(i)
		key := r.legalBuf[:0]
		for _, a := range r.cfg.Game.Legal(r.state, seat) {
			if b, err := r.cfg.Game.EncodeAction(a); err == nil {
				key = append(append(key, b...), 0)
			}
		}
		r.legalBuf = key
		if string(key) != r.legalKey[seat] { // compared without a copy; copied only when it changed
			r.legalKey[seat], r.legalSeq[seat] = string(key), r.seq
		}
	}
}
