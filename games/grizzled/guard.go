package grizzled

import "slices"

// LosesAtOnce reports whether action a, taken now by v's seat, ends the
// game in a defeat before anyone else can act. Only a support benefit
// (SU-5, SU-6) can do that: the checks that follow it (L-1: a soldier with
// hard knocks of weight 4 or more; M-1..M-4: the morale drop) run at once.
// Everything it needs is public, so a bot can ask it of its own view.
//
// It is false for every other decision: there, the team still has moves
// to make before a defeat.
func (v *SeatView) LosesAtOnce(a Action) bool {
	if v.Phase != PhaseBenefit || v.Seat < 0 || int(v.Seat) >= len(v.Players) {
		return false
	}
	me := int(v.Seat)
	demoralized := false
	held := 0
	for i, p := range v.Players {
		knocks := p.HardKnocks
		if i == me && a.Kind == ActBenefitDiscard {
			knocks = slices.DeleteFunc(slices.Clone(knocks), func(c CardID) bool { return slices.Contains(a.Cards, c) })
		}
		weight := 0
		for _, c := range knocks {
			weight += c.Weight()
			demoralized = demoralized || c == Demoralized
		}
		if weight >= 4 {
			return true // L-1
		}
		held += p.HandSize
	}
	if v.Trials == 0 && held == 0 {
		return false // the Peace card: the team wins
	}
	drop := max(held, 3) // M-1..M-3
	if demoralized {
		drop++
	}
	return v.Morale <= drop // M-4: the Monument is revealed
}
