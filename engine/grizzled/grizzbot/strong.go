package grizzbot

import (
	"math"
	"time"

	"bivouac/engine"
	g "bivouac/engine/grizzled"
)

// StrongConfig is the budget of the "strong" bot.
type StrongConfig struct {
	// Samples is the number of determinizations per decision; every
	// candidate action is played out once in each.
	Samples int
	// TimeCap, when positive, stops sampling once it has passed (after at
	// least one sample). With a time cap the choice may depend on the
	// machine's speed; without one it depends only on the view and seed.
	TimeCap time.Duration
	// Horizon, when positive, ends a playout once that many missions have
	// ended after the decision and scores the state reached with value
	// instead of playing to the end of the game.
	Horizon int
	// Gate is how sure (in standard errors of the paired difference) the
	// search must be that an action beats the rule-based choice before it
	// overrides it; 0 takes the best mean.
	Gate float64
}

// DefaultStrong is the budget of the "strong" level: 24 samples, each
// candidate played to the start of the next mission and scored there by
// the value model, overriding the rule-based choice only when the search
// is at least one standard error sure. About 5 ms per decision on one core.
var DefaultStrong = StrongConfig{Samples: 24, Horizon: 1, Gate: 1}

// Strong is the determinization + Monte Carlo bot ("strong").
type Strong struct {
	cfg       StrongConfig
	p         params
	searchAll bool // also search speech answers and tile choices
	w         *[numFeatures]float64
}

// NewStrong returns a strong bot with the given budget (Samples < 1 means 1).
func NewStrong(cfg StrongConfig) *Strong {
	cfg.Samples = max(cfg.Samples, 1)
	return &Strong{cfg: cfg, p: defaultParams, w: &valueWeights}
}

// Act implements engine.Bot. v must be a grizzled.SeatView (or a pointer
// to one); the result is always one of v.Legal.
func (b *Strong) Act(v engine.View, seed uint64) (engine.Action, bool) {
	var sv *g.SeatView
	switch x := v.(type) {
	case g.SeatView:
		sv = &x
	case *g.SeatView:
		sv = x
	}
	if sv == nil || len(sv.Legal) == 0 {
		return nil, false
	}
	return sv.Legal[b.choose(sv, seed)], true
}

// outcome scores a finished game: a win is worth 1; a loss earns a little
// for the progress made, which separates actions when wins are rare.
func outcome(s *g.State, w *[numFeatures]float64) float64 {
	won, over := s.Over()
	if won {
		return 1
	}
	if !over {
		return value(s, w)
	}
	left := s.TrialsLeft()
	for i := range s.Seats() {
		left += s.HandSize(engine.Seat(i))
	}
	return 0.02 * (1 - float64(min(left, 40))/40)
}

// valueWeights is a logistic model of the chance of winning from the
// features of a state between missions, fitted on games of the rule-based
// policy (all player counts, standard rules).
var valueWeights = [numFeatures]float64{3.0659, -5.2702, 1.8084, 0.0885, -0.0297, -1.9911, -0.4438, 0.8287, 0.9218, -0.0086, 0.1468, -0.3860, 0.5062, -2.0784, 0.1947, -0.2396}

// value estimates the chance of winning from an unfinished state.
func value(s *g.State, w *[numFeatures]float64) float64 {
	var f [numFeatures]float64
	features(s, &f)
	z := 0.0
	for i, x := range f {
		z += w[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// candidates lists the indices of v.Legal worth searching; the rest are
// dominated or decided well enough by the rules.
func (b *Strong) candidates(v *g.SeatView, dst []int) []int {
	for i := range v.Legal {
		dst = append(dst, i)
	}
	return dst
}

// searched reports whether the strong bot searches this kind of decision;
// speech answers and tile choices follow the rule-based policy.
func (b *Strong) searched(v *g.SeatView) bool {
	if b.searchAll {
		return true
	}
	switch v.Phase {
	case g.PhaseIntensity, g.PhaseTurn, g.PhaseBenefit:
		return true
	case g.PhaseDecision:
		return v.Decision == g.DecideHardKnock
	}
	return false
}

// choose returns the index in v.Legal of the action with the best mean
// outcome over the samples.
func (b *Strong) choose(v *g.SeatView, seed uint64) int {
	fallback := choose(v, seed, &b.p)
	if len(v.Legal) <= 1 || !b.searched(v) {
		return fallback
	}
	cands := b.candidates(v, make([]int, 0, len(v.Legal)))
	if len(cands) <= 1 {
		return fallback
	}
	var deadline time.Time
	if b.cfg.TimeCap > 0 {
		deadline = time.Now().Add(b.cfg.TimeCap)
	}
	fb := -1
	for j, ci := range cands {
		if ci == fallback {
			fb = j
		}
	}
	sums := make([]float64, len(cands))
	scores := make([]float64, len(cands))
	var diff, diff2 []float64
	if fb >= 0 {
		diff = make([]float64, len(cands))
		diff2 = make([]float64, len(cands))
	}
	done := 0
	for it := range b.cfg.Samples {
		if it > 0 && b.cfg.TimeCap > 0 && time.Now().After(deadline) {
			break
		}
		base := g.Determinize(*v, mix(seed, uint64(2*it)))
		if base == nil {
			return fallback
		}
		rs := mix(seed, uint64(2*it+1))
		for j, ci := range cands {
			s := base
			if j < len(cands)-1 {
				s = base.Clone()
			}
			if err := s.Step(v.Seat, v.Legal[ci]); err != nil {
				scores[j] = -1 // the sample disagrees with the view; count it against
				continue
			}
			if b.cfg.Horizon > 0 {
				playMissions(s, &b.p, rs, b.cfg.Horizon)
			} else {
				playOut(s, &b.p, rs, MaxActions)
			}
			scores[j] = outcome(s, b.w)
		}
		for j := range cands {
			sums[j] += scores[j]
			if fb >= 0 {
				d := scores[j] - scores[fb]
				diff[j] += d
				diff2[j] += d * d
			}
		}
		done++
	}
	if done == 0 {
		return fallback
	}
	best := -1
	for j := range cands {
		if best < 0 || sums[j] > sums[best]+1e-12 {
			best = j
		}
	}
	if fb >= 0 && best != fb && b.cfg.Gate > 0 {
		n := float64(done)
		mean := diff[best] / n
		vr := diff2[best]/n - mean*mean
		if n < 2 || mean*mean*n < b.cfg.Gate*b.cfg.Gate*vr*n/(n-1) {
			return fallback
		}
	}
	return cands[best]
}

// playMissions plays s on with the rule-based policy until n missions have
// ended (the game is then waiting for an intensity again) or the game is over.
func playMissions(s *g.State, p *params, seed uint64, n int) {
	end := s.Round() + n
	for k := 0; k < MaxActions; k++ {
		if _, over := s.Over(); over {
			return
		}
		if s.Round() >= end && s.Phase() == g.PhaseIntensity {
			return
		}
		seat := firstWaiting(s)
		if seat < 0 {
			return
		}
		v := s.View(seat)
		i := choose(&v, mix(seed, uint64(k)), p)
		if i < 0 || s.Step(seat, v.Legal[i]) != nil {
			return
		}
	}
}
