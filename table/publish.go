package table

// Publishing: the lobby's summary of the room, and each session's view
// through its one-slot mailbox.

import (
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// refreshSummary publishes the lobby's snapshot of this room.
func (r *Room) refreshSummary() {
	// Built on the stack and in the room's scratch, kept only when it
	// changed: at a move nothing the lobby shows changes, and a new
	// Summary a move was garbage for the collector.
	s := Summary{Code: r.cfg.Code, Game: r.cfg.Game.ID(), Title: r.cfg.Title, Host: r.cfg.Host, Options: r.cfg.Options,
		Seats: r.currentSeats(), Status: r.status()}
	if r.byCorrespondence() && r.started && !r.over {
		s.Waiting = r.corr.told
		s.Deadline, _ = r.turnDeadline()
	}
	players := r.playersBuf[:0]
	for _, st := range r.seats {
		if st.rec.Identity == "" && st.rec.Bot == "" {
			s.Open++
		}
		// A player who gave the seat to a bot for the rest of the game
		// (L) has no seat there any more: the lobby says "your seat" no
		// longer, and they are not sat back down at it.
		if st.rec.Identity != "" && !(st.rec.Left && r.started && !r.over) {
			players = append(players, st.rec.Identity)
		}
	}
	r.playersBuf, s.Players = players, players
	for _, m := range r.members {
		if m.seat < 0 {
			s.Watchers++
		}
	}
	// Only a change the lobby shows wakes the lobby: a move at a table
	// changes nothing there, and 2,000 sessions redrawing per move would.
	if prev := r.sum.Load(); prev != nil && prev.equal(&s) {
		return
	}
	kept := new(Summary) // s stays on the stack: only a changed summary is allocated
	*kept = s
	kept.Players = nil
	if len(players) > 0 {
		kept.Players = slices.Clone(players) // the scratch is the room's; a stored Summary is never written
	}
	r.sum.Store(kept)
	if r.onSum != nil {
		r.onSum()
	}
}

func (a *Summary) equal(b *Summary) bool {
	return a.Code == b.Code && a.Game == b.Game && a.Title.Equal(b.Title) && a.Open == b.Open &&
		a.Status == b.Status && a.Host == b.Host && a.Options.Equal(b.Options) &&
		a.Deadline.Equal(b.Deadline) && slices.Equal(a.Waiting, b.Waiting) &&
		a.Watchers == b.Watchers && slices.Equal(a.Seats, b.Seats) &&
		slices.Equal(a.Players, b.Players)
}

func (r *Room) status() RoomStatus {
	switch {
	case r.closed != Open:
		return StatusClosed
	case r.over:
		return StatusOver
	case r.started:
		return StatusPlaying
	}
	return StatusWaiting
}

// StandIn is SeatInfo.Bot for a bot playing an absent player's seat.
const StandIn = "stand-in"

// currentSeats is the seats as SeatInfos: while they are unchanged, the
// slice last returned, which the Summary and every Update share and
// nobody writes; a new one when they changed. A move changes no seat, so
// it allocates none (two a move before, with the lobby's summary).
func (r *Room) currentSeats() []SeatInfo {
	buf := r.seatsBuf[:0]
	for i, s := range r.seats {
		bot := s.rec.Bot
		if s.takeover {
			bot = StandIn
		}
		buf = append(buf, SeatInfo{Seat: game.Seat(i), ID: s.rec.Identity, Name: s.rec.Name, Bot: bot, Connected: r.seatConnected(game.Seat(i)), Badge: s.rec.Badge,
			Pick: s.rec.Pick, First: r.first == game.Seat(i)})
	}
	r.seatsBuf = buf
	if r.seatsOut == nil || !slices.Equal(buf, r.seatsOut) {
		r.seatsOut = slices.Clone(buf)
	}
	return r.seatsOut
}

// publish puts a fresh Update in every attached session's mailbox. Views are
// computed once per seat.
func (r *Room) publish() {
	views := r.viewsOfMembers()
	seats, public := r.currentSeats(), shared(r.logs[game.Spectator])
	for box := range r.members {
		r.put(box, views, seats, public)
	}
}

// viewsOfMembers starts a publish's views: every member's seat's at once
// if the game makes them together (game.Views), sharing what all see
// alike; put makes any other as it goes.
func (r *Room) viewsOfMembers() map[game.Seat]game.View {
	views := map[game.Seat]game.View{}
	vs, ok := r.cfg.Game.(game.Views)
	if !ok || !r.started {
		return views
	}
	var seats []game.Seat
	for _, m := range r.members {
		if !slices.Contains(seats, m.seat) {
			seats = append(seats, m.seat)
		}
	}
	made := vs.Views(r.state, seats)
	for i := range min(len(made), len(seats)) {
		views[seats[i]] = made[i]
	}
	return views
}

func (r *Room) publishTo(box *Mailbox) {
	if _, ok := r.members[box]; ok {
		r.put(box, map[game.Seat]game.View{}, r.currentSeats(), shared(r.logs[game.Spectator]))
	}
}

func (r *Room) put(box *Mailbox, views map[game.Seat]game.View, seats []SeatInfo, public []*game.Event) {
	m := r.members[box]
	u := Update{Room: r.cfg.Code, Title: r.cfg.Title, Game: r.cfg.Game.ID(), Seat: m.seat, Seq: r.seq,
		Seats: seats, Notice: r.notices[box].current(r.seq), Started: r.started, Over: r.over, Result: r.result,
		Log: shared(r.logs[m.seat]), LogEnd: r.logEnds[m.seat], Public: public, Options: r.cfg.Options}
	if r.started {
		v, ok := views[m.seat]
		if !ok {
			v = r.cfg.Game.View(r.state, m.seat)
			views[m.seat] = v
		}
		u.View = v
		end := r.timerEnd // the game's own timer, else the turn clock or a decision's deadline
		switch {
		case r.timer != nil:
		case r.turnClock != nil:
			end = r.turnEnd
		case r.corr.deadline != nil:
			end = r.corr.deadlineAt
		default:
			end = time.Time{}
		}
		if end.After(r.clock.Now()) {
			u.Deadline = int(end.Sub(r.clock.Now()).Seconds() + 0.5)
		}
	}
	box.Put(u)
}
