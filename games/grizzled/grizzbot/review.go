package grizzbot

import (
	"slices"
	"time"

	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// The coach: the strong bot's search turned on a decision. Assess rates
// every choice a seat had from that seat's view alone (the hidden cards
// are drawn afresh in each sample, so what the player could not know
// cannot move the rating); Hint says the best of them at the table; and
// ReviewGame rates every decision of a finished game.
//
// The hint and the review search the same samples of the same decision:
// both seed it from the view (DecisionSeed), and the review draws at least
// as many samples as a hint, so every ranking a hint could have made (cut
// short by its time cap at any sample count from its minimum to its full
// budget) is a ranking of the review's own first samples. The review works
// out which moves a hint could have named there and never calls one of
// them a mistake: a player who did what the coach said is not told it was
// wrong.

// ReviewConfig is the budget of one decision's assessment.
type ReviewConfig struct {
	// Samples is the number of determinizations; every choice is played
	// out once in each, so differences between choices are paired.
	Samples int
	// TimeCap, when positive, stops sampling once it has passed (after
	// MinSamples). Without it the rating depends only on the view.
	TimeCap time.Duration
	// MinSamples is the least a time cap may cut a rating down to.
	MinSamples int
	// Horizon is how many missions a playout looks ahead before the value
	// model judges; 0 looks as far as the strong level does at a table of
	// that size (DefaultTuned).
	Horizon int
	// Hints is the budget the table's hints had (a review only): a move
	// that a hint with this budget could have named is never a mistake,
	// and a better move within the margin of the hint's is named as the
	// hint's. Zero: the table had no hints to agree with.
	Hints HintBudget
	// Team is who plays the soldiers: the chances shown are those of a
	// team that plays as this one does (Team.calibration).
	Team Team
}

// HintBudget is the part of a hint's budget a review needs to know which
// moves the hint could have named: it ranks the first n samples, for
// some n from MinSamples (its time cap ran out) to Samples.
type HintBudget struct {
	Samples, MinSamples int
}

// DefaultHint is the budget of a hint at the table: a tenth of a second.
var DefaultHint = ReviewConfig{Samples: 120, TimeCap: 100 * time.Millisecond, MinSamples: 24}

// DefaultReview is the budget of a post-game review: 240 samples, and at
// most a quarter of a second a decision on a slow machine, but never fewer
// samples than a hint's whole budget (so that the review sees every
// ranking a hint could have made). Measured on one core of a 2-core VM:
// one person's 12-61 decisions in a standard game take 0.1-1.9 s (2 to 5
// soldiers), so a table of four people is reviewed in a few seconds.
var DefaultReview = ReviewConfig{Samples: 240, TimeCap: 250 * time.Millisecond, MinSamples: 120,
	Hints: DefaultHint.Budget()}

// Budget is what a review needs to know of hints made with cfg.
func (cfg ReviewConfig) Budget() HintBudget {
	lo := max(cfg.Samples, 1)
	if cfg.TimeCap > 0 {
		lo = min(lo, max(cfg.MinSamples, 1))
	}
	return HintBudget{Samples: max(cfg.Samples, 1), MinSamples: lo}
}

// DecisionSeed seeds the coach's search at view v: the same decision is
// searched with the same samples by a hint and by the review.
func DecisionSeed(v *g.SeatView) uint64 { return mix(uint64(v.Seq)+0xc0ac4, uint64(v.Seat)) }

// Hopeless is the team's chance of winning below which the coach judges a
// decision by the team's standing instead: with the game all but lost no
// choice moves the chance, but a player can still hold out longer.
const Hopeless = 0.03

// Assessment rates one decision.
type Assessment struct {
	Made g.Action `json:"made"`
	Best g.Action `json:"best"` // the choice the coach ranks first (Made if none beats it)
	// MadeP and BestP are the team's chances of winning after each, as the
	// deciding seat could judge them then.
	MadeP Estimate `json:"made_p"`
	BestP Estimate `json:"best_p"`
	// Cost is BestP − MadeP over the same samples (paired), with its own
	// interval: a cost whose interval holds 0 is noise, not a mistake.
	Cost    Estimate `json:"cost"`
	Choices int      `json:"choices"` // distinct choices compared
	// Hopeless: the best chance was under Hopeless, so Best is the choice
	// that keeps the team standing best, and the decision is judged by
	// CostS (the standing's paired difference) rather than Cost.
	Hopeless bool     `json:"hopeless,omitempty"`
	MadeS    Estimate `json:"made_s,omitzero"`
	BestS    Estimate `json:"best_s,omitzero"`
	CostS    Estimate `json:"cost_s,omitzero"`
	// Hinted: a hint at this decision could have named the move made
	// (ReviewConfig.Hints), so it is the coach's move there: Best is Made,
	// and it is never called a mistake nor a turning point.
	Hinted bool `json:"hinted,omitempty"`
	// Why says what Best gains over Made, when they differ.
	Why Why `json:"why,omitempty"`
}

// MinMistake is the least cost the coach calls a mistake: the value model
// behind the estimates has its own error, which the sampling interval does
// not show, so a sure difference of a point or two is not worth naming.
const MinMistake = 0.02

// MinStandMistake is the least difference in standing the coach names
// when the game is all but lost (a standing point is worth less than a
// point of the chance to win).
const MinStandMistake = 0.03

// Mistake reports whether the better choice is sure and worth naming: the
// cost's interval lies above zero and the cost is at least MinMistake (in
// standing, MinStandMistake, when the game was all but lost), and no hint
// at that decision could have named the move made.
func (a Assessment) Mistake() bool { return a.Grade() != GradeNone }

// Grade is how much a named decision cost, as a chess review grades
// moves.
type Grade uint8

const (
	GradeNone       Grade = iota // the coach's move, a near tie, or a hinted move
	GradeInaccuracy              // a sure cost from MinMistake
	GradeMistake                 // from GradeMistakeFrom
	GradeBlunder                 // from GradeBlunderFrom
)

// The grades' thresholds, in the chance to win: a mistake costs at least
// 5 points, a blunder at least 10 (a play that fails a mission while a
// safe one was open costs 10 to 40). When the game is all but lost, in
// standing: 3, 8 and 15 points.
const (
	GradeMistakeFrom      = 0.05
	GradeBlunderFrom      = 0.10
	StandGradeMistakeFrom = 0.08
	StandGradeBlunderFrom = 0.15
)

// Grade grades the decision by its cost: none unless the cost's interval
// lies above zero and no hint could have named the move made.
func (a Assessment) Grade() Grade {
	cost, from := a.Cost, [3]float64{MinMistake, GradeMistakeFrom, GradeBlunderFrom}
	if a.Hopeless {
		cost, from = a.CostS, [3]float64{MinStandMistake, StandGradeMistakeFrom, StandGradeBlunderFrom}
	}
	if a.Hinted || cost.Lo <= 0 {
		return GradeNone
	}
	g := GradeNone
	for i, f := range from {
		if cost.P >= f {
			g = Grade(i + 1)
		}
	}
	return g
}

// Loss is what the decision cost by the aim it is judged by.
func (a Assessment) Loss() float64 {
	if a.Hopeless {
		return a.CostS.P
	}
	return a.Cost.P
}

// ranker ranks choices on a growing prefix of the samples, as a hint
// cut short at that many samples would.
type ranker struct {
	o          *outcomes
	cal        calibration
	n          int
	win, stand []float64 // sums over the first n samples
}

func newRanker(o *outcomes, cal calibration) *ranker {
	return &ranker{o: o, cal: cal, win: make([]float64, o.k), stand: make([]float64, o.k)}
}

// grow adds samples up to the first n.
func (r *ranker) grow(n int) {
	k := r.o.k
	for ; r.n < n; r.n++ {
		for j := range k {
			r.win[j] += r.o.win[r.n*k+j]
			r.stand[j] += r.o.stand[r.n*k+j]
		}
	}
}

// order is the choices best first: by the chance of winning, or by the
// standing when even the best chance shown is under Hopeless; ties keep
// the choices' order.
func (r *ranker) order() (order []int, hopeless bool) {
	k := r.o.k
	by := r.win
	if r.cal.shown(slices.Max(r.win)/float64(max(r.n, 1))) < Hopeless {
		by, hopeless = r.stand, true
	}
	order = make([]int, k)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case by[a] > by[b]+1e-9:
			return -1
		case by[b] > by[a]+1e-9:
			return 1
		}
		return 0
	})
	return order, hopeless
}

// Assess rates the action made from view v: every legal action is played
// out in the same determinizations of v (playing on with the rule-based
// policy to the end of this mission or the next, as the strong level looks
// ahead at that table, scored there by the value model), and the action
// made is compared with the best. ok is false when v offers no
// choice or made is not one of v.Legal.
func Assess(v g.SeatView, made g.Action, cfg ReviewConfig) (a Assessment, ok bool) {
	mi := slices.IndexFunc(v.Legal, func(l g.Action) bool { return SameAction(l, made) })
	if len(v.Legal) < 2 || mi < 0 {
		return Assessment{}, false
	}
	o := search(&v, v.Seat, v.Legal, cfg, DecisionSeed(&v))
	if o == nil {
		return Assessment{}, false
	}
	return assess(o, v.Legal, mi, cfg, cfg.Team.calibration(&v)), true
}

// assess rates choice mi against the others from their search o.
func assess(o *outcomes, choices []g.Action, mi int, cfg ReviewConfig, cal calibration) (a Assessment) {
	n := o.n()
	r := newRanker(o, cal)
	hint := -1 // the move a hint with its whole budget names
	if h := cfg.Hints; h.Samples > 0 {
		for m := max(1, h.MinSamples); m <= min(h.Samples, n); m++ {
			r.grow(m)
			ord, _ := r.order()
			if ord[0] == mi {
				a.Hinted = true
			}
			hint = ord[0]
		}
	}
	r.grow(n)
	ord, hopeless := r.order()
	best := ord[0]
	by := o.win
	if hopeless {
		by = o.stand
	}
	switch {
	case a.Hinted, col(by, o, mi, n) >= col(by, o, best, n)-1e-9:
		best = mi // a tie is no better choice; a hinted move is the coach's own
	case hint >= 0 && estimate(o.diff(by, best, hint, n), -1, 1).Lo <= 0:
		// The review's best is not surely better than the hint's: the
		// review names the move the hint did, or none when that move
		// was no better than the one made.
		best = hint
		if col(by, o, hint, n) <= col(by, o, mi, n)+1e-9 {
			best = mi
		}
	}
	a.Made, a.Best, a.Choices, a.Hopeless = choices[mi], choices[best], o.k, hopeless
	madeRaw, bestRaw := estimate(o.col(o.win, mi, n), 0, 1), estimate(o.col(o.win, best, n), 0, 1)
	a.MadeP, a.BestP = cal.estimate(madeRaw), cal.estimate(bestRaw)
	a.Cost = cal.cost(madeRaw, estimate(o.diff(o.win, best, mi, n), -1, 1))
	if hopeless {
		a.MadeS, a.BestS = estimate(o.col(o.stand, mi, n), 0, 1), estimate(o.col(o.stand, best, n), 0, 1)
		a.CostS = estimate(o.diff(o.stand, best, mi, n), -1, 1)
	}
	if best != mi {
		a.Why = why(o, best, mi, n, hopeless)
	}
	return a
}

// col is the mean of choice j's column of xs over the first n samples.
func col(xs []float64, o *outcomes, j, n int) float64 {
	sum := 0.0
	for i := range n {
		sum += xs[i*o.k+j]
	}
	return sum / float64(max(n, 1))
}

// Advice is a hint: the move the coach would make and the next best, with
// the team's chances after each (and, when the game is all but lost and
// the moves are ranked by the team's standing, the standings and why the
// move keeps the team standing best).
type Advice struct {
	Best, Next   g.Action
	BestP, NextP Estimate
	Hopeless     bool
	BestS, NextS Estimate
	Why          Why
}

// Hint is the coach's advice from view v (ok false: no choice). It is
// seeded from v (DecisionSeed), as the review of the same decision is.
func Hint(v g.SeatView, cfg ReviewConfig) (Advice, bool) {
	if len(v.Legal) < 2 {
		return Advice{}, false
	}
	o := search(&v, v.Seat, v.Legal, cfg, DecisionSeed(&v))
	if o == nil {
		return Advice{}, false
	}
	return advise(o, v.Legal, cfg.Team.calibration(&v)), true
}

// advise is the hint that search o gives among choices.
func advise(o *outcomes, choices []g.Action, cal calibration) Advice {
	n := o.n()
	r := newRanker(o, cal)
	r.grow(n)
	ord, hopeless := r.order()
	b, x := ord[0], ord[1]
	ad := Advice{Best: choices[b], Next: choices[x], Hopeless: hopeless,
		BestP: cal.estimate(estimate(o.col(o.win, b, n), 0, 1)), NextP: cal.estimate(estimate(o.col(o.win, x, n), 0, 1))}
	if hopeless {
		ad.BestS, ad.NextS = estimate(o.col(o.stand, b, n), 0, 1), estimate(o.col(o.stand, x, n), 0, 1)
		ad.Why = why(o, b, x, n, true)
	}
	return ad
}

// SameAction reports whether a and b are the same move.
func SameAction(a, b g.Action) bool {
	return a.Kind == b.Kind && a.K == b.K && a.Card == b.Card && a.Threat == b.Threat && a.Tile == b.Tile &&
		a.Target == b.Target && slices.Equal(a.Cards, b.Cards)
}
