package grizzbot

import (
	"errors"
	"math"
	"slices"
	"time"

	"bivouac/game"
	g "bivouac/game/grizzled"
)

// The coach: the strong bot's search turned on a decision already made.
// Assess rates every choice a seat had from that seat's view alone (the
// hidden cards are drawn afresh in each sample, so what the player could
// not know cannot move the rating); ReviewGame does it for every decision
// of a finished game.

// ReviewConfig is the budget of one decision's assessment.
type ReviewConfig struct {
	// Samples is the number of determinizations; every choice is played
	// out once in each, so differences between choices are paired.
	Samples int
	// TimeCap, when positive, stops sampling once it has passed (after
	// MinSamples). Without it the rating depends only on the view and seed.
	TimeCap time.Duration
	// MinSamples is the least a time cap may cut a rating down to.
	MinSamples int
	// Horizon is how many missions a playout looks ahead before the value
	// model judges; 0 looks as far as the strong level does at a table of
	// that size (DefaultTuned).
	Horizon int
}

// DefaultReview is the budget of a post-game review: 240 samples, and at
// most a quarter of a second a decision on a slow machine. Measured on one
// core of a 2-core VM: one person's 12-61 decisions in a standard game
// take 0.1-1.9 s (2 to 5 soldiers), so a table of four people is reviewed
// in a few seconds.
var DefaultReview = ReviewConfig{Samples: 240, TimeCap: 250 * time.Millisecond, MinSamples: 48}

// DefaultHint is the budget of a hint at the table: a tenth of a second.
var DefaultHint = ReviewConfig{Samples: 120, TimeCap: 100 * time.Millisecond, MinSamples: 24}

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

// Assessment rates one decision.
type Assessment struct {
	Made g.Action `json:"made"`
	Best g.Action `json:"best"` // the choice with the highest estimate (Made if none beats it)
	// MadeP and BestP are the team's chances of winning after each, as the
	// deciding seat could judge them then.
	MadeP Estimate `json:"made_p"`
	BestP Estimate `json:"best_p"`
	// Cost is BestP − MadeP over the same samples (paired), with its own
	// interval: a cost whose interval holds 0 is noise, not a mistake.
	Cost    Estimate `json:"cost"`
	Choices int      `json:"choices"` // distinct choices compared
}

// MinMistake is the least cost the coach calls a mistake: the value model
// behind the estimates has its own error, which the sampling interval does
// not show, so a sure difference of a point or two is not worth naming.
const MinMistake = 0.02

// Mistake reports whether the better choice is sure and worth naming: the
// cost's interval lies above zero and the cost is at least MinMistake.
func (a Assessment) Mistake() bool { return a.Cost.Lo > 0 && a.Cost.P >= MinMistake }

// Assess rates the action made from view v: every legal action is played
// out in the same determinizations of v (playing on with the rule-based
// policy to the end of this mission or the next, as the strong level looks
// ahead at that table, scored there by the value model), and the action
// made is compared with the best. ok is false when v offers no
// choice or made is not one of v.Legal.
func Assess(v g.SeatView, made g.Action, cfg ReviewConfig, seed uint64) (a Assessment, ok bool) {
	mi := slices.IndexFunc(v.Legal, func(l g.Action) bool { return SameAction(l, made) })
	if len(v.Legal) < 2 || mi < 0 {
		return Assessment{}, false
	}
	scores := rate(&v, cfg, seed)
	if scores == nil {
		return Assessment{}, false
	}
	k := len(v.Legal)
	n := len(scores) / k
	col := func(j int) []float64 {
		out := make([]float64, n)
		for i := range n {
			out[i] = scores[i*k+j]
		}
		return out
	}
	best := mi
	sums := make([]float64, k)
	for i := range n {
		for j := range k {
			sums[j] += scores[i*k+j]
		}
	}
	for j := range k {
		if sums[j] > sums[best]+1e-9 {
			best = j
		}
	}
	diff := make([]float64, n)
	for i := range n {
		diff[i] = scores[i*k+best] - scores[i*k+mi]
	}
	return Assessment{Made: made, Best: v.Legal[best], MadeP: estimate(col(mi), 0, 1), BestP: estimate(col(best), 0, 1),
		Cost: estimate(diff, -1, 1), Choices: k}, true
}

// Hint is the bot's advice from view v: the action it would take and its
// estimate, and the next best choice's for comparison (ok false: no choice).
func Hint(v g.SeatView, cfg ReviewConfig, seed uint64) (best, next g.Action, bestP, nextP Estimate, ok bool) {
	if len(v.Legal) < 2 {
		return best, next, bestP, nextP, false
	}
	scores := rate(&v, cfg, seed)
	if scores == nil {
		return best, next, bestP, nextP, false
	}
	k := len(v.Legal)
	n := len(scores) / k
	means := make([]float64, k)
	for i := range n {
		for j := range k {
			means[j] += scores[i*k+j] / float64(n)
		}
	}
	order := make([]int, k)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case means[a] > means[b]+1e-9:
			return -1
		case means[b] > means[a]+1e-9:
			return 1
		}
		return 0
	})
	col := func(j int) Estimate {
		out := make([]float64, n)
		for i := range n {
			out[i] = scores[i*k+j]
		}
		return estimate(out, 0, 1)
	}
	return v.Legal[order[0]], v.Legal[order[1]], col(order[0]), col(order[1]), true
}

// rate plays every action of v.Legal in each determinization and returns
// the scores row by row (len(v.Legal) per sample), or nil when v cannot be
// determinized.
func rate(v *g.SeatView, cfg ReviewConfig, seed uint64) []float64 {
	samples := max(cfg.Samples, 1)
	k := len(v.Legal)
	var deadline time.Time
	if cfg.TimeCap > 0 {
		deadline = time.Now().Add(cfg.TimeCap)
	}
	horizon := cfg.Horizon
	if horizon <= 0 {
		horizon = max(1, NewTuned(DefaultTuned).config(v).Horizon)
	}
	out := make([]float64, 0, samples*k)
	var scratch g.SeatView
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
				out = append(out, 0) // the sample disagrees with the view
				continue
			}
			playMissions(s, &scratch, rseed, horizon)
			out = append(out, chance(s, &scratch))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
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

// Move is one action of a recorded game.
type Move struct {
	Seat   game.Seat
	Action g.Action
	ByBot  bool // a bot made it for the seat's player (turn clock, takeover): nobody to coach
}

// Decision is one rated decision of a game.
type Decision struct {
	Index   int       `json:"index"` // 1 + the number of actions before it
	Seat    game.Seat `json:"seat"`
	Mission int       `json:"mission"` // 1-based
	Assessment
}

// GameReview is the coach's reading of a whole game.
type GameReview struct {
	Decisions []Decision `json:"decisions"`
	// StandIns counts, per reviewed seat, the decisions (moves with a
	// choice) a bot made in the person's place: left out of Decisions, but
	// the reason a person has fewer of them, or none.
	StandIns map[game.Seat]int `json:"stand_ins,omitempty"`
	Missions int               `json:"missions"`
	Won      bool              `json:"won"`
	Samples  int               `json:"samples"` // the budget per decision
	Version  int               `json:"version,omitempty"`
}

// ReviewVersion is the Version of a review ReviewGame makes today: a
// stored review of an older one lacks what it added and is made again.
// 1: StandIns. 2: the samples give every player the tiles everybody
// knows they hold (grizzled.PlayerView.KnownTiles).
const ReviewVersion = 2

// ErrStopped is ReviewGame's answer when its progress function asked it to stop.
var ErrStopped = errors.New("grizzbot: review stopped")

// ReviewGame replays moves from start and rates every decision of a seat
// for which review is true (the people at the table; bots need no coach),
// but for the moves a bot made in a person's place, which it counts in
// StandIns when they were choices.
// progress, if not nil, hears after each rated decision how many of the
// total are done, and returns false to stop the review (ErrStopped).
// start is consumed.
func ReviewGame(start *g.State, moves []Move, review func(game.Seat) bool, cfg ReviewConfig, seed uint64, progress func(done, total int) bool) (GameReview, error) {
	total := 0
	rated := func(m Move) bool { return review(m.Seat) && !m.ByBot }
	for _, m := range moves {
		if rated(m) {
			total++
		}
	}
	out := GameReview{Samples: cfg.Samples, Version: ReviewVersion}
	s, done := start, 0
	for i, m := range moves {
		if m.ByBot && review(m.Seat) && len(s.View(m.Seat).Legal) > 1 {
			if out.StandIns == nil {
				out.StandIns = map[game.Seat]int{}
			}
			out.StandIns[m.Seat]++
		}
		if rated(m) {
			v := s.View(m.Seat)
			if a, ok := Assess(v, m.Action, cfg, mix(seed, uint64(i))); ok {
				out.Decisions = append(out.Decisions, Decision{Index: i + 1, Seat: m.Seat, Mission: v.Round, Assessment: a})
			}
			done++
			if progress != nil && !progress(done, total) {
				return out, ErrStopped
			}
		}
		if err := s.Step(m.Seat, m.Action); err != nil {
			return out, err
		}
	}
	out.Missions = s.Round()
	out.Won, _ = s.Over()
	return out, nil
}

// Costliest returns up to n of seat's decisions, the most costly first,
// that are sure mistakes (Mistake).
func (r GameReview) Costliest(seat game.Seat, n int) []Decision {
	var out []Decision
	for _, d := range r.Decisions {
		if d.Seat == seat && d.Mistake() {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Decision) int {
		switch {
		case a.Cost.P > b.Cost.P:
			return -1
		case a.Cost.P < b.Cost.P:
			return 1
		}
		return 0
	})
	return out[:min(n, len(out))]
}

// Turns returns the indices in Decisions of up to n decisions after which
// the estimated chance moved most from the one before (the moments where
// the game turned), in game order.
func (r GameReview) Turns(n int) []int {
	type swing struct {
		i int
		d float64
	}
	var sw []swing
	for i := 1; i < len(r.Decisions); i++ {
		sw = append(sw, swing{i, math.Abs(r.Decisions[i].MadeP.P - r.Decisions[i-1].MadeP.P)})
	}
	slices.SortStableFunc(sw, func(a, b swing) int {
		switch {
		case a.d > b.d:
			return -1
		case a.d < b.d:
			return 1
		}
		return 0
	})
	var out []int
	for _, s := range sw[:min(n, len(sw))] {
		out = append(out, s.i)
	}
	slices.Sort(out)
	return out
}
