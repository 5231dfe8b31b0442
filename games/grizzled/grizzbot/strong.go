package grizzbot

import (
	"math"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// StrongConfig is the budget of the "strong" bot.
type StrongConfig struct {
	// Samples is the number of determinizations per decision; every
	// candidate action is played out once in each.
	Samples int
	// TimeCap, when positive, stops sampling once it has passed on Clock
	// (after at least one sample). With a time cap the choice may depend
	// on the machine's speed; without one it depends only on the view and
	// seed.
	TimeCap time.Duration
	// Clock is what TimeCap is measured on. The rules read no clock, so
	// the caller brings one; without it TimeCap is ignored.
	Clock Clock
	// Horizon, when positive, ends a playout once that many missions have
	// ended after the decision and scores the state reached with value
	// instead of playing to the end of the game.
	Horizon int
	// Gate is how sure (in standard errors of the paired difference) the
	// search must be that an action beats the rule-based choice before it
	// overrides it; 0 takes the best mean.
	Gate float64
	// Tiles also searches which support tile to place when withdrawing
	// (else the rule-based choice stands).
	Tiles bool
	// Playouts, when positive, caps Samples × candidates: a choice among
	// many moves takes fewer samples, so that no decision costs much more
	// than that many playouts.
	Playouts int
}

// Clock tells the time (clock.System does).
type Clock interface{ Now() time.Time }

// DefaultStrong is a one-size budget: 24 samples, each candidate played
// to the start of the next mission and scored there by the value model,
// overriding the rule-based choice only when the search is at least one
// standard error sure. A few ms per decision on one core. The "strong"
// level uses DefaultTuned instead.
var DefaultStrong = StrongConfig{Samples: 24, Horizon: 1, Gate: 1}

// Tuned is a budget for each number of soldiers at the table (the chaplain
// aside), 2 to 5.
type Tuned [6]StrongConfig

// DefaultTuned is the "strong" level, chosen by simulation (paired deals,
// 200 games each; docs/WINRATES.md has the table it makes). Looking two
// missions ahead before the value model judges pays at every size (2
// players, standard rules: 39% → 55%; 5 players, once the playouts use
// the policy tuned for 5 and a lost playout is worth nothing: 40% →
// 52.5%), and so does searching which support tile to place (2 players
// 55% → 65%; 4 players 52% → 60%). Half a standard error of sureness
// overrides the rule-based choice; at 2 soldiers a whole one (veteran
// rules: 59 → 98 wins of 400 paired deals, standard unchanged). Once
// playouts got twice as fast, 2 soldiers take 192 samples, up to 1,536
// playouts a decision (veteran rules: 231 → 253 wins of 1,000 deals).
// Decisions stay within 50 ms p99 on one core at every size
// (BenchmarkStrongDecisionTimes).
var DefaultTuned = Tuned{
	2: {Samples: 192, Horizon: 2, Gate: 1, Tiles: true, Playouts: 1536},
	3: {Samples: 48, Horizon: 2, Gate: 0.5, Tiles: true},
	4: {Samples: 48, Horizon: 2, Gate: 0.5, Tiles: true},
	5: {Samples: 96, Horizon: 2, Gate: 0.5, Tiles: true},
}

// Strong is the determinization + Monte Carlo bot ("strong").
//
// A Strong bot keeps no state between calls: one value may act for several
// seats and from several goroutines at once.
type Strong struct {
	cfg   StrongConfig
	tuned *Tuned // when set, the budget for the table's size
	// deal, when set, draws a sample's full state in place of
	// g.Determinize. Only tests set it (to measure a bot that sees the
	// hidden cards); a real table never can.
	deal func(v *g.SeatView, seed uint64) *g.State
}

// NewStrong returns a strong bot with the given budget (Samples < 1 means 1).
func NewStrong(cfg StrongConfig) *Strong {
	cfg.Samples = max(cfg.Samples, 1)
	return &Strong{cfg: cfg}
}

// NewTuned returns a strong bot whose budget depends on the number of
// soldiers at the table.
func NewTuned(t Tuned) *Strong {
	for i := range t {
		t[i].Samples = max(t[i].Samples, 1)
	}
	return &Strong{cfg: t[4], tuned: &t}
}

// config is the budget for the table v shows.
func (b *Strong) config(v *g.SeatView) StrongConfig {
	if b.tuned == nil {
		return b.cfg
	}
	n := soldiers(v)
	if n < 2 || n >= len(b.tuned) {
		return b.cfg
	}
	return b.tuned[n]
}

// Act implements game.Bot. v must be a grizzled.SeatView (or a pointer
// to one); the result is always one of v.Legal.
func (b *Strong) Act(v game.View, seed uint64) (game.Action, bool) {
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
	return sv.Legal[keepInTheGame(sv, b.choose(sv, seed))], true
}

// valueWeights is a logistic model of the chance of winning from the
// features of a state between missions, fitted on games of the rule-based
// policy (all player counts, standard rules).
var valueWeights = [numFeatures]float64{2.9616, -5.1643, 1.7892, 0.1684, -0.0286, -1.9396, -0.4405, 0.6822, 0.8788, -0.0291, 0.0124, -0.4233, 0.6679, -1.8147, 0.2805, -0.2044}

// value estimates the chance of winning from an unfinished state (v is
// scratch space for its view).
func value(s *g.State, v *g.SeatView) float64 {
	var f [numFeatures]float64
	features(s, v, &f)
	z := 0.0
	for i, x := range f {
		z += valueWeights[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// candidates lists the indices of v.Legal worth searching; the rest are
// dominated or decided well enough by the rules.
func (b *Strong) candidates(v *g.SeatView, dst []int) []int {
	for i, a := range v.Legal {
		if a.Kind == g.ActPlay && a.Card == g.MerryChristmas && !knockInPlay(v) && len(v.Hand) > 1 {
			continue // with no hard knock to discard it would be wasted: keep it for one
		}
		dst = append(dst, i)
	}
	return dst
}

// knockInPlay reports whether any soldier has a hard knock in front of them.
func knockInPlay(v *g.SeatView) bool {
	for _, p := range v.Players {
		if len(p.HardKnocks) > 0 {
			return true
		}
	}
	return false
}

// searched reports whether the strong bot searches this kind of decision;
// speech answers (and tile choices unless cfg.Tiles) follow the rule-based
// policy.
func searched(v *g.SeatView, cfg StrongConfig) bool {
	switch v.Phase {
	case g.PhaseIntensity, g.PhaseTurn, g.PhaseBenefit:
		return true
	case g.PhaseDecision:
		return v.Decision == g.DecideHardKnock || cfg.Tiles && v.Decision == g.DecidePlaceTile
	}
	return false
}

// choose returns the index in v.Legal of the action to take: every
// candidate is played out in each of Samples determinizations (the same
// determinization and playout seed for all candidates, so differences are
// paired), and the best mean is taken if it beats the rule-based choice by
// Gate standard errors of the paired difference; else the rule-based
// choice stands.
func (b *Strong) choose(v *g.SeatView, seed uint64) int {
	fallback := choose(v, seed, paramsFor(soldiers(v)))
	cfg := b.config(v)
	if len(v.Legal) <= 1 || !searched(v, cfg) {
		return fallback
	}
	cands := b.candidates(v, make([]int, 0, len(v.Legal)))
	if len(cands) <= 1 {
		return fallback
	}
	capped := cfg.TimeCap > 0 && cfg.Clock != nil
	var deadline time.Time
	if capped {
		deadline = cfg.Clock.Now().Add(cfg.TimeCap)
	}
	late := func(it int) bool { return it > 0 && capped && cfg.Clock.Now().After(deadline) }
	fb := slices.Index(cands, fallback)
	if fb < 0 {
		cands = append(cands, fallback)
		fb = len(cands) - 1
	}
	samples := cfg.Samples
	if cfg.Playouts > 0 {
		samples = min(samples, max(cfg.Playouts/len(cands), 2))
	}
	sums := make([]float64, len(cands))
	scores := make([]float64, len(cands))
	all := make([]float64, 0, samples*len(cands)) // every sample's scores, for the gate
	done := 0
	var scratch g.SeatView
	for it := range samples {
		if late(it) {
			break
		}
		if !b.sample(v, &scratch, cfg, cands, scores, mix(seed, uint64(2*it)), mix(seed, uint64(2*it+1))) {
			return fallback
		}
		for j := range cands {
			sums[j] += scores[j]
		}
		all = append(all, scores...)
		done++
	}
	if done == 0 {
		return fallback
	}
	best := fb
	for j := range cands {
		if sums[j] > sums[best]+1e-12 {
			best = j
		}
	}
	if best == fb {
		return fallback
	}
	// Gate on the paired differences with the rule-based choice.
	if cfg.Gate <= 0 {
		return cands[best]
	}
	var st pairStats
	k := len(cands)
	for it := range done {
		st.add(all[it*k+best] - all[it*k+fb])
	}
	if st.sure(cfg.Gate) {
		return cands[best]
	}
	return fallback
}

// sample plays every action v.Legal[cands[j]] in one determinization and
// writes each outcome to scores[j] (scratch is the playouts' view
// storage). It reports false if the view cannot be determinized.
func (b *Strong) sample(v, scratch *g.SeatView, cfg StrongConfig, cands []int, scores []float64, dseed, rseed uint64) bool {
	var base *g.State
	if b.deal != nil {
		base = b.deal(v, dseed)
	} else {
		base = g.Determinize(*v, dseed)
	}
	if base == nil {
		return false
	}
	for j, ci := range cands {
		s := base
		if j < len(cands)-1 {
			s = base.Clone()
		}
		if err := s.Step(v.Seat, v.Legal[ci]); err != nil {
			scores[j] = -1 // the sample disagrees with the view; count it against
			continue
		}
		if cfg.Horizon > 0 {
			playMissions(s, scratch, rseed, cfg.Horizon)
		} else {
			playOut(s, scratch, rseed, MaxActions)
		}
		scores[j] = chance(s, scratch)
	}
	return true
}

// pairStats accumulates paired differences.
type pairStats struct {
	n       int
	sum, sq float64
}

func (p *pairStats) add(d float64) { p.n++; p.sum += d; p.sq += d * d }

// sure reports whether the mean difference is positive by at least z
// standard errors (z <= 0: merely positive).
func (p *pairStats) sure(z float64) bool {
	if p.n == 0 || p.sum <= 0 {
		return false
	}
	if z <= 0 {
		return true
	}
	if p.n < 2 {
		return false
	}
	n := float64(p.n)
	mean := p.sum / n
	vr := (p.sq - n*mean*mean) / (n - 1)
	return mean*mean*n >= z*z*vr
}

// playMissions plays s on with the rule-based policy until n missions have
// ended (the game is then waiting for an intensity again) or the game is
// over; v is scratch space (see playUntil).
func playMissions(s *g.State, v *g.SeatView, seed uint64, n int) {
	playUntil(s, v, seed, MaxActions, s.Round()+n, nil)
}
