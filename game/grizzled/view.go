package grizzled

import (
	"slices"

	"bivouac/game"
)

// View is everything seat may know (spec §7), as a fresh value that never
// aliases s. game.Spectator (or any seat that is not a player) gets the
// public view: no hand, no tiles, no legal actions.
func (s *State) View(seat game.Seat) SeatView {
	me := int(seat)
	if me < 0 || me >= len(s.players) || s.players[me].Chaplain {
		me = -1
	}
	v := SeatView{
		Seat:         seat,
		Seq:          s.seq,
		Options:      s.opts,
		Phase:        s.phase,
		Round:        s.round,
		MinIntensity: s.MinIntensity(),
		MaxIntensity: s.MaxIntensity(),
		Leader:       game.Seat(s.leader),
		Active:       game.Seat(s.active),
		Waiting:      s.Waiting(),
		Trials:       len(s.trials),
		Morale:       len(s.morale),
		SpeechSupply: s.supply,
		NML:          slices.Clone(s.nml),
		Counts:       s.Counts(),
		Failed:       s.failed,
		Speaker:      -1,
		Players:      make([]PlayerView, len(s.players)),
		Over:         s.phase == PhaseOver,
		Won:          s.won,
		LossReason:   s.loss,
		Removed:      slices.Clone(s.removed),
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
		l := *s.last
		l.Tiles = slices.Clone(s.last.Tiles)
		v.LastSupport = &l
	}
	for i := range s.players {
		p := &s.players[i]
		c := Characters[p.Character]
		v.Players[i] = PlayerView{
			Seat:           game.Seat(i),
			Name:           p.Name,
			Character:      c.Name,
			Charm:          c.Charm,
			CharmAvailable: !p.CharmUsed,
			Chaplain:       p.Chaplain,
			HandSize:       len(p.Hand),
			Tiles:          len(p.Tiles),
			HardKnocks:     slices.Clone(p.Knocks),
			Arrivals:       slices.Clone(p.Arrival),
			Weight:         p.weight(),
			SpeechTokens:   p.Tokens,
			Withdrawn:      p.Withdrawn,
			PlacedTile:     p.Placed != NoTile,
			KnownTiles:     slices.Clone(p.Known),
			Mute:           p.owns(Mute),
			Answered:       p.Eligible && p.Answered,
		}
		if v.Players[i].HardKnocks == nil {
			v.Players[i].HardKnocks = []CardID{}
		}
		if p.Eligible {
			v.Eligible = append(v.Eligible, game.Seat(i))
		}
	}
	if me >= 0 {
		p := &s.players[me]
		v.Hand = slices.Clone(p.Hand)
		v.MyTiles = slices.Clone(p.Tiles)
		slices.Sort(v.MyTiles) // L, R, DL, DR: a stable order on screen
		if !p.Hidden {
			v.PlacedTile = p.Placed
		}
		v.Legal = s.Legal(seat)
	}
	return v
}
