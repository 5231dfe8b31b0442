package grizzbot

import (
	"math"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/game/grizzled"
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
	// that a hint with this budget could have named is never a mistake.
	// Zero: the table had no hints to agree with.
	Hints HintBudget
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

// Estimate is a sampled chance with its 95% interval.
type Estimate struct {
	P  float64 `json:"p"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	N  int     `json:"n"` // samples behind it
}

// estimate is the mean of xs with a normal 95% interval, clamped to lo..hi.
func estimate(xs []float64, lo, hi float64) Estimate {
	n := len(xs)
	if n == 0 {
		return Estimate{}
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	mean := sum / float64(n)
	half := 0.0
	if n > 1 {
		vr := max(0, (sq-float64(n)*mean*mean)/float64(n-1))
		half = 1.96 * math.Sqrt(vr/float64(n))
	}
	return Estimate{P: mean, Lo: max(lo, mean-half), Hi: min(hi, mean+half), N: n}
}

// Hopeless is the team's chance of winning below which the coach judges a
// decision by the team's standing instead: with the game all but lost no
// choice moves the chance, but a player can still hold out longer.
const Hopeless = 0.03

// Standing, the coach's second aim, is measured where a playout's look
// ahead ends: half of it is the missions the team survives of those it
// looks ahead (a game lost sooner survives fewer), a quarter the morale
// cards kept, a quarter the hard knocks kept off (the heaviest soldier's
// weight against the four that lose the game). A won game stands at 1.
const (
	standMissions = 0.5
	standMorale   = 0.25
	standKnocks   = 0.25
)

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
func (a Assessment) Mistake() bool {
	switch {
	case a.Hinted:
		return false
	case a.Hopeless:
		return a.CostS.Lo > 0 && a.CostS.P >= MinStandMistake
	}
	return a.Cost.Lo > 0 && a.Cost.P >= MinMistake
}

// Loss is what the decision cost by the aim it is judged by.
func (a Assessment) Loss() float64 {
	if a.Hopeless {
		return a.CostS.P
	}
	return a.Cost.P
}

// outcomes are a search's results: for each sample, each choice's chance
// of winning and the team's standing, row by row.
type outcomes struct {
	k          int
	win, stand []float64
}

func (o *outcomes) n() int { return len(o.win) / o.k }

// col is choice j's column of xs over the first n samples.
func (o *outcomes) col(xs []float64, j, n int) []float64 {
	out := make([]float64, n)
	for i := range n {
		out[i] = xs[i*o.k+j]
	}
	return out
}

// ranker ranks choices on a growing prefix of the samples, as a hint
// cut short at that many samples would.
type ranker struct {
	o          *outcomes
	n          int
	win, stand []float64 // sums over the first n samples
}

func newRanker(o *outcomes) *ranker {
	return &ranker{o: o, win: make([]float64, o.k), stand: make([]float64, o.k)}
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
// standing when even the best chance is under Hopeless; ties keep
// v.Legal's order.
func (r *ranker) order() (order []int, hopeless bool) {
	k := r.o.k
	by := r.win
	if slices.Max(r.win) < Hopeless*float64(r.n) {
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
	o := rate(&v, cfg, DecisionSeed(&v))
	if o == nil {
		return Assessment{}, false
	}
	n := o.n()
	r := newRanker(o)
	if h := cfg.Hints; h.Samples > 0 {
		for m := max(1, h.MinSamples); m <= min(h.Samples, n); m++ {
			r.grow(m)
			if ord, _ := r.order(); ord[0] == mi {
				a.Hinted = true
				break
			}
		}
	}
	r.grow(n)
	ord, hopeless := r.order()
	best := ord[0]
	if !hopeless && r.win[mi] >= r.win[best]-1e-9 || hopeless && r.stand[mi] >= r.stand[best]-1e-9 || a.Hinted {
		best = mi // a tie is no better choice; a hinted move is the coach's own
	}
	diff := func(xs []float64) []float64 {
		d := make([]float64, n)
		for i := range n {
			d[i] = xs[i*o.k+best] - xs[i*o.k+mi]
		}
		return d
	}
	a.Made, a.Best, a.Choices, a.Hopeless = made, v.Legal[best], o.k, hopeless
	a.MadeP, a.BestP = estimate(o.col(o.win, mi, n), 0, 1), estimate(o.col(o.win, best, n), 0, 1)
	a.Cost = estimate(diff(o.win), -1, 1)
	if hopeless {
		a.MadeS, a.BestS = estimate(o.col(o.stand, mi, n), 0, 1), estimate(o.col(o.stand, best, n), 0, 1)
		a.CostS = estimate(diff(o.stand), -1, 1)
	}
	return a, true
}

// Advice is a hint: the move the coach would make and the next best, with
// the team's chances after each (and, when the game is all but lost and
// the moves are ranked by the team's standing, the standings).
type Advice struct {
	Best, Next   g.Action
	BestP, NextP Estimate
	Hopeless     bool
	BestS, NextS Estimate
}

// Hint is the coach's advice from view v (ok false: no choice). It is
// seeded from v (DecisionSeed), as the review of the same decision is.
func Hint(v g.SeatView, cfg ReviewConfig) (Advice, bool) {
	if len(v.Legal) < 2 {
		return Advice{}, false
	}
	o := rate(&v, cfg, DecisionSeed(&v))
	if o == nil {
		return Advice{}, false
	}
	n := o.n()
	r := newRanker(o)
	r.grow(n)
	ord, hopeless := r.order()
	b, x := ord[0], ord[1]
	ad := Advice{Best: v.Legal[b], Next: v.Legal[x], Hopeless: hopeless,
		BestP: estimate(o.col(o.win, b, n), 0, 1), NextP: estimate(o.col(o.win, x, n), 0, 1)}
	if hopeless {
		ad.BestS, ad.NextS = estimate(o.col(o.stand, b, n), 0, 1), estimate(o.col(o.stand, x, n), 0, 1)
	}
	return ad, true
}

// rate plays every action of v.Legal in each determinization and returns
// the outcomes, or nil when v cannot be determinized.
func rate(v *g.SeatView, cfg ReviewConfig, seed uint64) *outcomes {
	samples := max(cfg.Samples, 1)
	k := len(v.Legal)
	var deadline time.Time
	if cfg.TimeCap > 0 {
		deadline = time.Now().Add(cfg.TimeCap)
	}
	horizon := horizonOf(v, cfg)
	o := &outcomes{k: k, win: make([]float64, 0, samples*k), stand: make([]float64, 0, samples*k)}
	var scratch g.SeatView
	from := standFrom{round: v.Round, morale: v.Morale, horizon: horizon}
	for it := range samples {
		if cfg.TimeCap > 0 && it >= max(cfg.MinSamples, 1) && time.Now().After(deadline) {
			break
		}
		base := g.Determinize(*v, mix(seed, uint64(2*it)))
		if base == nil {
			break
		}
		rseed := mix(seed, uint64(2*it+1))
		for j, a := range v.Legal {
			s := base
			if j < k-1 {
				s = base.Clone()
			}
			if err := s.Step(v.Seat, a); err != nil {
				o.win, o.stand = append(o.win, 0), append(o.stand, 0) // the sample disagrees with the view
				continue
			}
			playMissions(s, &scratch, rseed, horizon)
			o.win = append(o.win, chance(s, &scratch))
			o.stand = append(o.stand, from.standing(s))
		}
	}
	if len(o.win) == 0 {
		return nil
	}
	return o
}

// horizonOf is how many missions a playout of cfg looks ahead from v.
func horizonOf(v *g.SeatView, cfg ReviewConfig) int {
	if cfg.Horizon > 0 {
		return cfg.Horizon
	}
	return max(1, NewTuned(DefaultTuned).config(v).Horizon)
}

// standFrom is where a standing is measured from: the decision's mission
// and morale, and how many missions the playouts look ahead.
type standFrom struct{ round, morale, horizon int }

// standing is the team's standing in s (the coach's second aim), read
// from the state itself: a view per playout would cost a third of one.
func (f standFrom) standing(s *g.State) float64 {
	won, over := s.Over()
	if won {
		return 1
	}
	survived := s.Round() - f.round
	if over {
		survived = max(0, survived-1) // the mission the game was lost in was not survived
	}
	heaviest := 0
	for i := range s.Seats() {
		heaviest = max(heaviest, s.Weight(game.Seat(i)))
	}
	morale := 0.0
	if f.morale > 0 {
		morale = min(1, float64(s.MoraleLeft())/float64(f.morale))
	}
	return standMissions*min(1, float64(survived)/float64(f.horizon)) + standMorale*morale +
		standKnocks*max(0, 1-float64(heaviest)/4)
}

// chance is the team's chance of winning from s: 1 or 0 once the game is
// over, else the value model's estimate. A loss is worth nothing, less than
// any game still going: the search once gave a lost game a little for the
// cards it had cleared, and then preferred losing at once to a game it
// judged nearly hopeless (veteran rules at 2 soldiers: 7.5% → 11.5% won).
// v is scratch space for the value model's view.
func chance(s *g.State, v *g.SeatView) float64 {
	won, over := s.Over()
	switch {
	case won:
		return 1
	case over:
		return 0
	}
	return value(s, v)
}

// SameAction reports whether a and b are the same move.
func SameAction(a, b g.Action) bool {
	return a.Kind == b.Kind && a.K == b.K && a.Card == b.Card && a.Threat == b.Threat && a.Tile == b.Tile &&
		a.Target == b.Target && slices.Equal(a.Cards, b.Cards)
}
