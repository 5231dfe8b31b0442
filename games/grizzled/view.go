package grizzled

import (
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// View is everything seat may know (spec §7), as a fresh value that never
// aliases s. game.Spectator (or any seat that is not a player) gets the
// public view: no hand, no tiles, no legal actions.
func (s *State) View(seat game.Seat) SeatView {
	var v SeatView
	s.ViewInto(seat, &v)
	return v
}

// ViewInto makes *v the View of seat, reusing the storage of v's slices
// (bots playing thousands of moves a decision build a view for each; most
// of that time went to allocating them). v never aliases s; what v held
// before is overwritten. On a zero v it makes exactly what View makes.
func (s *State) ViewInto(seat game.Seat, v *SeatView) { s.viewInto(seat, v, nil, nil) }

// Views are the views of seats, made together: they share one list of
// the soldiers' public rows (and of the seats still to answer), read only.
// Each equals View of its seat.
func (s *State) Views(seats []game.Seat) []SeatView {
	views := make([]SeatView, len(seats))
	if len(seats) == 0 {
		return views
	}
	s.viewInto(seats[0], &views[0], nil, nil)
	for i := 1; i < len(seats); i++ {
		s.viewInto(seats[i], &views[i], views[0].Players, views[0].Eligible)
	}
	return views
}

// viewInto is ViewInto; with players (and eligible) given, the view takes
// them as they are instead of making its own.
func (s *State) viewInto(seat game.Seat, v *SeatView, players []PlayerView, eligible []game.Seat) {
	me := int(seat)
	if me < 0 || me >= len(s.players) || s.players[me].Chaplain {
		me = -1
	}
	old := *v
	*v = SeatView{
		Seat:         seat,
		Seq:          s.seq,
		Options:      s.opts,
		Phase:        s.phase,
		Round:        s.round,
		MinIntensity: s.MinIntensity(),
		MaxIntensity: s.MaxIntensity(),
		Leader:       game.Seat(s.leader),
		Active:       game.Seat(s.active),
		Waiting:      s.appendWaiting(old.Waiting[:0]),
		Trials:       len(s.trials),
		Morale:       len(s.morale),
		SpeechSupply: s.supply,
		NML:          cloneInto(old.NML, s.nml),
		Counts:       s.Counts(),
		Failed:       s.failed,
		Speaker:      -1,
		Players:      players,
		Over:         s.phase == PhaseOver,
		Won:          s.won,
		LossReason:   s.loss,
		Removed:      cloneInto(old.Removed, s.removed),
		Eligible:     eligible,
	}
	if players == nil { // else given: the same rows every seat sees
		v.Players, v.Eligible = resize(old.Players, len(s.players)), old.Eligible[:0]
		s.playerRows(v)
	}
	if v.NML == nil {
		v.NML = []CardID{}
	}
	if v.Removed == nil {
		v.Removed = []CardID{}
	}
	if s.phase == PhaseSpeech {
		v.SpeechThreat, v.Speaker = s.speechThreat, game.Seat(s.speaker)
	}
	if s.phase == PhaseDecision {
		v.Decision = s.decision
	}
	if s.phase == PhaseTurn {
		v.MustWithdraw, v.CanWithdraw, v.WhyNoWithdraw = s.TurnStatus(s.active)
	}
	if s.last != nil {
		l := old.LastSupport
		if l == nil {
			l = new(SupportReveal)
		}
		tiles := l.Tiles
		*l = *s.last
		l.Tiles = cloneInto(tiles, s.last.Tiles)
		v.LastSupport = l
	}
	if me >= 0 {
		p := &s.players[me]
		v.Hand = cloneInto(old.Hand, p.Hand)
		v.MyTiles = cloneInto(old.MyTiles, p.Tiles)
		slices.Sort(v.MyTiles) // L, R, DL, DR: a stable order on screen
		if !p.Hidden {
			v.PlacedTile = p.Placed
		}
		v.Legal = s.AppendLegal(old.Legal[:0], seat)
	}
}

// playerRows fills v.Players (sized to the soldiers) with each soldier's
// public row, and v.Eligible with the seats still to answer.
func (s *State) playerRows(v *SeatView) {
	for i := range s.players {
		p := &s.players[i]
		c := Characters[p.Character]
		// Field by field rather than one composite literal: a reused view
		// lives on the heap, where copying a whole struct of pointers
		// costs a bulk write barrier while the collector runs. Every field
		// is set (TestViewIntoReusesCleanly catches one forgotten).
		pv := &v.Players[i]
		pv.Seat = game.Seat(i)
		pv.Name = p.Name
		pv.Character = c.Name
		pv.Charm = c.Charm
		pv.CharmAvailable = !p.CharmUsed
		pv.Chaplain = p.Chaplain
		pv.HandSize = len(p.Hand)
		pv.Tiles = len(p.Tiles)
		pv.HardKnocks = cloneInto(pv.HardKnocks, p.Knocks)
		pv.Arrivals = cloneInto(pv.Arrivals, p.Arrival)
		pv.Weight = p.weight()
		pv.SpeechTokens = p.Tokens
		pv.Withdrawn = p.Withdrawn
		pv.PlacedTile = p.Placed != NoTile
		pv.KnownTiles = cloneInto(pv.KnownTiles, p.Known)
		pv.Mute = p.owns(Mute)
		pv.Answered = p.Eligible && p.Answered
		if pv.HardKnocks == nil {
			pv.HardKnocks = []CardID{}
		}
		if p.Eligible {
			v.Eligible = append(v.Eligible, game.Seat(i))
		}
	}
}

// cloneInto is slices.Clone(src) in dst's storage when dst has any (so a
// reused view keeps its buffers), else exactly slices.Clone(src).
func cloneInto[S ~[]E, E any](dst, src S) S {
	if dst == nil {
		return slices.Clone(src)
	}
	return append(dst[:0], src...)
}

// resize is a slice of n zero-or-reused elements in dst's storage when it
// is large enough, else a fresh one.
func resize[S ~[]E, E any](dst S, n int) S {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make(S, n)
}
