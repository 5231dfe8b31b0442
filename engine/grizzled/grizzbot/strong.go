package grizzbot

import (
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
}

// DefaultStrong is the budget of the "strong" level.
var DefaultStrong = StrongConfig{Samples: 48}

// Strong is the determinization + Monte Carlo bot ("strong").
type Strong struct {
	cfg StrongConfig
	p   params
}

// NewStrong returns a strong bot with the given budget (Samples < 1 means 1).
func NewStrong(cfg StrongConfig) *Strong {
	cfg.Samples = max(cfg.Samples, 1)
	return &Strong{cfg: cfg, p: defaultParams}
}

// Act implements engine.Bot. v must be a grizzled.SeatView (or a pointer
// to one); the result is always one of v.Legal.
func (b *Strong) Act(v engine.View, seed uint64) (engine.Action, bool) {
	sv, ok := seatView(v)
	if !ok || len(sv.Legal) == 0 {
		return nil, false
	}
	return sv.Legal[b.choose(sv, seed)], true
}

// outcome scores a finished (or abandoned) rollout: a win is worth 1; a
// loss earns a little for the progress made, which separates actions when
// wins are rare.
func outcome(s *g.State) float64 {
	won, over := s.Over()
	if won {
		return 1
	}
	if !over {
		return 0
	}
	left := s.TrialsLeft()
	for i := range s.Seats() {
		left += s.HandSize(engine.Seat(i))
	}
	return 0.05 * (1 - float64(min(left, 40))/40)
}

// choose returns the index in v.Legal of the action with the best mean
// outcome over the samples.
func (b *Strong) choose(v *g.SeatView, seed uint64) int {
	if len(v.Legal) == 1 {
		return 0
	}
	fallback := choose(v, seed, &b.p)
	var deadline time.Time
	if b.cfg.TimeCap > 0 {
		deadline = time.Now().Add(b.cfg.TimeCap)
	}
	sums := make([]float64, len(v.Legal))
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
		for j, a := range v.Legal {
			s := base
			if j < len(v.Legal)-1 {
				s = base.Clone()
			}
			if err := s.Step(v.Seat, a); err != nil {
				sums[j] -= 1 // the sample disagrees with the view; count it against
				continue
			}
			playOut(s, &b.p, rs, MaxActions)
			sums[j] += outcome(s)
		}
		done++
	}
	if done == 0 {
		return fallback
	}
	best := fallback
	for j := range sums {
		if sums[j] > sums[best]+1e-9 {
			best = j
		}
	}
	return best
}
