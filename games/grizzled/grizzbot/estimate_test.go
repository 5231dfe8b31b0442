package grizzbot

import (
	"math"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// strongGame records a two-soldier standard game with the one-size strong
// bot in both seats.
func strongGame(t *testing.T, seed uint64) []Move {
	t.Helper()
	s := newGame(t, 2, g.Standard, seed)
	bot := NewStrong(DefaultStrong)
	var moves []Move
	for n := 0; n < MaxActions; n++ {
		if _, over := s.Over(); over {
			return moves
		}
		seat := firstWaiting(s)
		v := s.View(seat)
		act := v.Legal[0]
		if len(v.Legal) > 1 {
			a, _ := bot.Act(v, mix(seed, uint64(n)))
			act = a.(g.Action)
		}
		moves = append(moves, Move{Seat: seat, Action: act})
		if err := s.Step(seat, act); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game did not end")
	return nil
}

// policyStart is how the review once estimated a mission's start: the
// rule-based policy playing every seat, the leader's intensity too, from
// 60 samples of seat's view; decisions were estimated with the coach's
// best move. Kept here to show where the two disagreed.
func policyStart(s *g.State, seat game.Seat, seed uint64) Estimate {
	v := s.View(seat)
	xs := make([]float64, 0, 60)
	var scratch g.SeatView
	for it := range 60 {
		st := g.Determinize(v, mix(seed, uint64(2*it)))
		playMissions(st, &scratch, mix(seed, uint64(2*it+1)), horizonOf(&v, ReviewConfig{}))
		xs = append(xs, chance(st, &scratch))
	}
	return estimate(xs, 0, 1)
}

// In this game, at the start of mission 5 (seat 0 leads), the old mixed
// estimate jumped: the mission's start, the policy playing every seat,
// said 49% (±6), and the hint on the intensity right after it, the
// coach's best move, 63% (±5): a turning point made by the switch of
// estimators.
// With one estimator the mission's start is the hint's chance there, the
// review's decision starts from it, and nothing changes between them.
func TestOneEstimateAlongTheGame(t *testing.T) {
	const seed, mission = 12, 5
	moves := strongGame(t, seed)
	cfg := ReviewConfig{Samples: DefaultHint.Samples} // a hint's samples, no time cap
	r, err := ReviewGame(newGame(t, 2, g.Standard, seed), moves, seatZero, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var line *MissionLine
	for i := range r.Lines {
		if r.Lines[i].Mission == mission {
			line = &r.Lines[i]
		}
	}
	if line == nil {
		t.Fatalf("the game has no mission %d", mission)
	}
	s := newGame(t, 2, g.Standard, seed)
	for _, m := range moves[:line.Index-1] {
		if err := s.Step(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
	}
	v := s.View(0)
	if s.Phase() != g.PhaseIntensity || len(v.Legal) < 2 {
		t.Fatalf("seat 0 does not lead mission %d", mission)
	}
	ad, _ := Hint(v, cfg)
	old := policyStart(s, 0, uint64(mission))
	if math.Abs(old.P-ad.BestP.P) <= ad.BestP.Margin()+old.Margin() {
		t.Fatalf("the old estimates agree here (%.0f%% and %.0f%%): the position shows nothing", 100*old.P, 100*ad.BestP.P)
	}
	t.Logf("mission %d: the old start said %.0f%%, the hint %.0f%% (±%.0f); the line starts at %.0f%%", mission,
		100*old.P, 100*ad.BestP.P, 100*ad.BestP.Margin(), 100*line.Start.P)
	if line.Start != ad.BestP {
		t.Errorf("the mission's start %+v is not the hint's chance there %+v", line.Start, ad.BestP)
	}
	// Wherever seat 0 leads, its intensity's review starts where the
	// mission's line does, and the course does not move between them.
	for _, l := range r.Lines {
		for i, d := range r.Decisions {
			if d.Index != l.Index {
				continue
			}
			if d.BestP != l.Start {
				t.Errorf("mission %d starts at %.3f, its first decision at %.3f", l.Mission, l.Start.P, d.BestP.P)
			}
			for _, tu := range r.Turns {
				if tu.Cause != ByDecision && tu.At == i && tu.Last < d.Index && tu.First >= l.Index && tu.From != tu.To {
					t.Errorf("mission %d: the course moves between its start and its first decision: %+v", l.Mission, tu)
				}
			}
		}
	}
}
