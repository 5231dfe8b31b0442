package table

// Keeping players apart: the host of a waiting room removing a player
// (who may not come back to that table), and a host's block list keeping
// a player from sitting at the tables they host.

import (
	"context"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// ErrCannotJoin is said to a player the table keeps out: removed from it
// by its host, or blocked by its host. It is neutral on purpose: neither
// says who decided, or why.
var ErrCannotJoin = game.NewError("table.people.cannot_join")

// errRemoveWho: the host named an open seat, a bot or their own.
var errRemoveWho = game.NewError("table.people.remove_who")

// ErrRemoveAway: a player only away (not AwayGrace yet) is not removed.
// (Nor is a table's creator: while seated they are its host.)
var ErrRemoveAway = game.NewError("table.people.remove_away")

// Blocks reports whether player a has blocked player b (identities).
// The server answers from a's profile, or a guest's own session.
type Blocks func(a, b string) bool

// Apart reports whether id may be seated at the table sum describes
// without sitting with anyone who blocked them or whom they blocked: a
// matching that seats strangers together (quick join) asks it of every
// table it considers. A nil Blocks keeps nobody apart.
func (b Blocks) Apart(sum Summary, id string) bool {
	if b == nil {
		return true
	}
	for _, other := range sum.Players {
		if other != id && (b(other, id) || b(id, other)) {
			return false
		}
	}
	return true
}

// Remove takes the player in seat out of the waiting room (host only,
// before the game starts): their sessions are told (CloseReason Removed)
// and they cannot join this table again.
func (r *Room) Remove(ctx context.Context, box *Mailbox, seat game.Seat) error {
	return r.call(ctx, command{kind: cmdRemove, box: box, seat: seat})
}

// keepsOut is why id may not join this table (nil: they may): removed
// from it, or blocked by its host. A player already seated here comes
// back to their seat before this is asked.
func (r *Room) keepsOut(id string) error {
	if slices.Contains(r.removed, id) {
		return ErrCannotJoin
	}
	if r.cfg.Blocked != nil && r.cfg.Host != "" && r.cfg.Host != id && r.cfg.Blocked(r.cfg.Host, id) {
		return ErrCannotJoin
	}
	if r.cfg.Campaign != "" && !r.cfg.Blocked.Apart(Summary{Players: r.seated()}, id) {
		// A campaign's squad is matched for a run of missions: whoever
		// opens a mission, two who keep apart never sit at it together.
		return ErrCannotJoin
	}
	return nil
}

// seated are the identities of the humans holding seats.
func (r *Room) seated() []string {
	var ids []string
	for _, s := range r.seats {
		if s.rec.Identity != "" {
			ids = append(ids, s.rec.Identity)
		}
	}
	return ids
}

// remove is the host's Remove on the actor.
func (r *Room) remove(c command) error {
	switch {
	case !r.isHost(c.box):
		return ErrNotHost
	case r.started:
		return ErrStarted
	case c.seat < 0 || int(c.seat) >= len(r.seats):
		return game.Refuse(nil, game.M("table.err.no_seat", game.Num("N", int(c.seat)+1)))
	}
	s := &r.seats[c.seat]
	id := s.rec.Identity
	switch {
	case id == "" || id == r.cfg.Host:
		return errRemoveWho
	case !r.seatConnected(c.seat) && r.clock.Now().Sub(s.awaySince) < AwayGrace:
		return game.Refuse(ErrRemoveAway, game.M("table.people.remove_away", game.Text("Player", s.rec.Name), waitArg(AwayGrace)))
	}
	for box, m := range r.members {
		if m.id == id {
			box.Put(Update{Room: r.cfg.Code, Closed: Removed})
			delete(r.members, box)
			delete(r.notices, box)
		}
	}
	r.narrate(game.M("table.people.removed", game.Text("Player", s.rec.Name)))
	s.rec = SeatRecord{Seat: c.seat}
	if !slices.Contains(r.removed, id) && len(r.removed) < MaxRemoved {
		r.removed = append(r.removed, id)
	}
	r.save()
	r.afterChange()
	return nil
}

// MaxRemoved is how many players a waiting room remembers removing: a
// host cannot grow the room's record without end.
const MaxRemoved = 64
