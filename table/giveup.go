package table

import "github.com/bivouac-ssh/bivouac/game"

// GiveUpSeat gives up, for good, the seat the player of identity holds
// while no session of theirs is at the table (a banned player's, whose
// seat would otherwise wait for them): in a game a bot plays it, as after
// L; in a waiting room it is freed. A seat with a session on it is that
// session's to give up (Leave).
func (r *Room) GiveUpSeat(identity string) error {
	return r.submit(command{kind: cmdGiveUp, text: identity})
}

func (r *Room) giveUp(identity string) {
	for i := range r.seats {
		seat, s := game.Seat(i), &r.seats[i]
		if identity == "" || s.rec.Identity != identity || r.seatConnected(seat) {
			continue
		}
		switch {
		case !r.started:
			r.narrate(game.M("table.leaves", game.Text("Player", s.rec.Name)))
			r.freeSeat(seat)
		case r.over || s.rec.Left || r.cfg.Bots == nil:
			continue
		default:
			r.narrateAbout(seat, game.M("table.has_left", game.Text("Player", s.rec.Name)))
			s.takeover, s.rec.Left = true, true
		}
		r.save()
		r.afterChange()
	}
}
