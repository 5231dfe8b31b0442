package table

// The turn clock (RoomConfig.TurnClock): a person who leaves a decision
// longer than that has a bot make it for them this once, so one player who
// walked away from the keyboard, or lost the connection, never stalls the
// table. After two in a row a bot plays their seat until they act again.

import (
	"github.com/bivouac-ssh/bivouac/game"
)

// armTurnClock starts the clock for the decision the table now waits on
// from people, unless it runs already, the game's own timer runs, no
// person is waited on, or nobody is at the table (then it waits for its
// players, as without a clock).
func (r *Room) armTurnClock() {
	if r.cfg.TurnClock <= 0 || r.cfg.Bots == nil || r.timer != nil || !r.humanConnected() || len(r.clockSeats()) == 0 {
		r.stopTurnClock()
		return
	}
	if r.turnClock != nil && r.turnSeq == r.seq {
		return
	}
	r.stopTurnClock()
	seq := r.seq
	r.turnSeq, r.turnEnd = seq, r.clock.Now().Add(r.cfg.TurnClock)
	r.turnClock = r.clock.AfterFunc(r.cfg.TurnClock, func() { r.retrySubmit(command{kind: cmdTurnClock, seq: seq}) })
}

func (r *Room) stopTurnClock() {
	if r.turnClock != nil {
		r.turnClock.Stop()
		r.turnClock = nil
	}
}

// clockSeats are the seats the table waits on that a person plays now.
func (r *Room) clockSeats() []game.Seat { return r.personSeats(r.cfg.Game.Waiting(r.state)) }

// personSeats are those of seats that a person plays now: neither a bot's
// seat, nor an empty one, nor one a bot stands in at.
func (r *Room) personSeats(seats []game.Seat) []game.Seat {
	var out []game.Seat
	for _, seat := range seats {
		if seat < 0 || int(seat) >= len(r.seats) {
			continue
		}
		if s := r.seats[seat]; s.rec.Bot == "" && s.rec.Identity != "" && !s.takeover {
			out = append(out, seat)
		}
	}
	return out
}

// turnClockRanOut: if the table still waits on the same decision, a bot
// makes it for each person it waits on.
func (r *Room) turnClockRanOut(seq int) {
	r.turnClock = nil
	if seq != r.seq || r.over || !r.started {
		return
	}
	for _, seat := range r.clockSeats() {
		r.timeouts[seat]++
		name := r.seats[seat].rec.Name
		if r.timeouts[seat] >= 2 {
			r.seats[seat].takeover = true
			r.narrateAbout(seat, game.M("table.clock.again", game.Text("Player", name)))
			continue
		}
		r.clockFor[seat] = r.seq + 1
		r.narrateAbout(seat, game.M("table.clock.once", game.Text("Player", name), waitIn("table.clock.longer.", r.cfg.TurnClock)))
	}
	r.afterChange()
}

// backInControl: a person who acts has their seat back from the clock's
// bot, and a clean slate. It reports whether the seat changed hands.
func (r *Room) backInControl(seat game.Seat) bool {
	was := r.timeouts[seat]
	delete(r.timeouts, seat)
	if s := &r.seats[seat]; s.takeover && was >= 2 && r.seatConnected(seat) {
		s.takeover = false
		r.narrateAbout(seat, game.M("table.clock.back", game.Text("Player", s.rec.Name)))
		return true
	}
	return false
}
