package grizzled

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// TestLosesAtOnceMatchesTheRules: in every benefit decision of many random
// games, LosesAtOnce predicts exactly what applying the action does.
func TestLosesAtOnceMatchesTheRules(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 100
	}
	var checked, losing int
	for i := range games {
		randomGame(t, 2+i%4, Options{Variant: Standard, Leader: game.NoSeat}, uint64(7000+i), false, func(s *State) {
			if s.phase != PhaseBenefit {
				return
			}
			seat := game.Seat(s.beneficiary)
			v := s.View(seat)
			for _, a := range s.Legal(seat) {
				c := s.Clone()
				if err := c.Step(seat, a); err != nil {
					t.Fatalf("legal %v refused: %v", a, err)
				}
				won, over := c.Over()
				lost := over && !won
				if got := v.LosesAtOnce(a); got != lost {
					t.Fatalf("game %d: LosesAtOnce(%v) = %v, but applying it loses: %v (%s)", i, a, got, lost, c.LossReason())
				}
				checked++
				if lost {
					losing++
				}
			}
		})
	}
	if checked == 0 || losing == 0 {
		t.Fatalf("the random games reached %d benefit choices, %d of them losing: too few to test", checked, losing)
	}
	t.Logf("%d benefit choices checked, %d of them lose at once", checked, losing)
}

// TestLosesAtOnceOnlyJudgesBenefits: outside the benefit, nothing loses at once.
func TestLosesAtOnceOnlyJudgesBenefits(t *testing.T) {
	s := newTestGame(t, 4, Options{Variant: Standard, Leader: 0}, 1)
	v := s.View(0)
	for _, a := range s.Legal(0) {
		if v.LosesAtOnce(a) {
			t.Errorf("%v judged as losing at once in phase %v", a, s.phase)
		}
	}
}
