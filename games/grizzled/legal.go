package grizzled

import (
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// Waiting lists the seats the game waits on now, in seat order. During
// PhaseSpeech these are the eligible seats that have not answered yet.
func (s *State) Waiting() []game.Seat { return s.appendWaiting(nil) }

// appendWaiting appends Waiting's seats to dst.
func (s *State) appendWaiting(dst []game.Seat) []game.Seat {
	switch s.phase {
	case PhaseIntensity:
		return append(dst, game.Seat(s.leader))
	case PhaseTurn:
		return append(dst, game.Seat(s.active))
	case PhaseSpeech:
		for i := range s.players {
			if s.players[i].Eligible && !s.players[i].Answered {
				dst = append(dst, game.Seat(i))
			}
		}
		return dst
	case PhaseDecision:
		return append(dst, game.Seat(s.decider))
	case PhaseBenefit:
		return append(dst, game.Seat(s.beneficiary))
	}
	return dst
}

// WaitsOn reports whether the game waits on seat now (no allocation).
func (s *State) WaitsOn(seat game.Seat) bool {
	p := int(seat)
	if p < 0 || p >= len(s.players) {
		return false
	}
	switch s.phase {
	case PhaseIntensity:
		return p == s.leader
	case PhaseTurn:
		return p == s.active
	case PhaseSpeech:
		return s.players[p].Eligible && !s.players[p].Answered
	case PhaseDecision:
		return p == s.decider
	case PhaseBenefit:
		return p == s.beneficiary
	}
	return false
}

// Legal lists every action seat may take now (nil when nothing is asked of
// it). Every listed action succeeds if applied at once.
func (s *State) Legal(seat game.Seat) []Action { return s.AppendLegal(nil, seat) }

// AppendLegal appends the legal actions of seat to dst (for allocation-free
// reuse of a buffer) and returns it.
func (s *State) AppendLegal(dst []Action, seat game.Seat) []Action {
	if !s.WaitsOn(seat) {
		return dst
	}
	p := int(seat)
	pl := &s.players[p]
	switch s.phase {
	case PhaseIntensity:
		for k := s.MinIntensity(); k <= s.MaxIntensity(); k++ {
			dst = append(dst, Action{Kind: ActIntensity, K: k})
		}
	case PhaseTurn:
		forced, allowed, _, _ := s.turnStatus(p)
		if !forced {
			for _, c := range pl.Hand {
				dst = append(dst, Action{Kind: ActPlay, Card: c})
			}
			if !pl.CharmUsed {
				charm := Characters[pl.Character].Charm
				for _, c := range s.nml {
					if c.HasThreat(charm) {
						dst = append(dst, Action{Kind: ActCharm, Card: c})
					}
				}
			}
			if pl.Tokens > 0 && !pl.owns(Mute) {
				for t := range Threat(NumThreats) {
					dst = append(dst, Action{Kind: ActSpeech, Threat: t})
				}
			}
		}
		if allowed {
			dst = append(dst, Action{Kind: ActWithdraw})
		}
	case PhaseSpeech:
		for _, c := range pl.Hand {
			if c.HasThreat(s.speechThreat) {
				dst = append(dst, Action{Kind: ActSpeechDiscard, Card: c})
			}
		}
		dst = append(dst, Action{Kind: ActSpeechPass})
	case PhaseDecision:
		switch s.decision {
		case DecideRemoveTile, DecidePlaceTile:
			kind := ActRemoveTile
			if s.decision == DecidePlaceTile {
				kind = ActPlaceTile
			}
			// One choice per kind of tile held, always in the order L, R,
			// DL, DR: the menu must not reshuffle from one mission to the
			// next as tiles come and go.
			for t := TileL; t <= TileDR; t++ {
				if slices.Contains(pl.Tiles, t) {
					dst = append(dst, Action{Kind: kind, Tile: t})
				}
			}
		case DecideHardKnock:
			for i := range s.players {
				for _, k := range s.players[i].Knocks {
					dst = append(dst, Action{Kind: ActDiscardHardKnock, Card: k, Target: game.Seat(i)})
				}
			}
		}
	case PhaseBenefit:
		success := s.last != nil && s.last.Success
		ks := pl.Knocks
		for i, a := range ks {
			dst = append(dst, Action{Kind: ActBenefitDiscard, Cards: []CardID{a}})
			if success {
				for _, b := range ks[i+1:] {
					dst = append(dst, Action{Kind: ActBenefitDiscard, Cards: []CardID{a, b}})
				}
			}
		}
		if success && pl.CharmUsed {
			dst = append(dst, Action{Kind: ActBenefitCharm})
		}
		dst = append(dst, Action{Kind: ActBenefitDecline})
	}
	return dst
}
