package grizzbot

import (
	"math"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// The coach's one estimator. Every chance the coach shows (a hint, a
// review's decision, a mission's start on the chart) is the same search:
// the choices of the seat the game waits on are played out in the same
// determinizations of one seat's view, the rule-based policy plays on as
// far as the strong level looks ahead, the value model judges the state
// reached, and the calibration (Team.Calibrate) turns the mean into the
// chance a team of that strength actually wins with. The chance of a
// position is its best choice's: the coach's move, whoever makes it.

// Estimate is a sampled chance with its 95% interval.
type Estimate struct {
	P  float64 `json:"p"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	N  int     `json:"n"` // samples behind it
}

// Margin is the half-width of the interval (the larger side).
func (e Estimate) Margin() float64 { return max(e.P-e.Lo, e.Hi-e.P) }

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

// outcomes are a search's results: for each sample, each choice's
// chance of winning (raw: before calibration), the team's standing, and
// what the playout did (for saying why one choice beats another), row
// by row.
type outcomes struct {
	k          int
	win, stand []float64
	// fail: the decision's mission failed; lost: the game was lost
	// within the look-ahead; morale: the share of the morale reserve
	// kept; knocks: the hard knocks kept off (1 − heaviest weight/4).
	fail, lost, morale, knocks []float64
	// decided: the decision's mission was over before it (a benefit,
	// after its support): its failure is no reason for either move.
	decided bool
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

// diff is column a minus column b of xs, sample by sample (paired), over
// the first n samples.
func (o *outcomes) diff(xs []float64, a, b, n int) []float64 {
	d := make([]float64, n)
	for i := range n {
		d[i] = xs[i*o.k+a] - xs[i*o.k+b]
	}
	return d
}

// add appends one sample's result for the next choice.
func (o *outcomes) add(win, stand float64, r playoutEnd) {
	o.win, o.stand = append(o.win, win), append(o.stand, stand)
	o.fail, o.lost = append(o.fail, b2f(r.failed)), append(o.lost, b2f(r.lost))
	o.morale, o.knocks = append(o.morale, r.morale), append(o.knocks, r.knocks)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// search plays each of choices, for seat decider, in the same
// determinizations of v (the seat v belongs to sees no more than its
// view shows) and plays on with the rule-based policy as far as cfg looks
// ahead. It returns nil when v cannot be determinized.
func search(v *g.SeatView, decider game.Seat, choices []g.Action, cfg ReviewConfig, seed uint64) *outcomes {
	samples := max(cfg.Samples, 1)
	k := len(choices)
	if k == 0 {
		return nil
	}
	var deadline time.Time
	if cfg.TimeCap > 0 {
		deadline = time.Now().Add(cfg.TimeCap)
	}
	horizon := horizonOf(v, cfg)
	o := &outcomes{k: k, decided: v.Phase == g.PhaseBenefit}
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
		for j, a := range choices {
			s := base
			if j < k-1 {
				s = base.Clone()
			}
			if err := s.Step(decider, a); err != nil {
				o.add(0, 0, playoutEnd{failed: true, lost: true}) // the sample disagrees with the view
				continue
			}
			w := failWatch{round: v.Round}
			w.see(s)
			playUntil(s, &scratch, rseed, MaxActions, s.Round()+horizon, &w)
			end := from.end(s)
			end.failed = w.failed
			o.add(chance(s, &scratch), from.standing(s), end)
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

// playoutEnd is what a playout did, as the coach says why.
type playoutEnd struct {
	failed, lost   bool
	morale, knocks float64
}

// end reads what a playout did from the state it reached (all but the
// mission's failure, which the playout watched for).
func (f standFrom) end(s *g.State) playoutEnd {
	won, over := s.Over()
	e := playoutEnd{lost: over && !won, morale: 1, knocks: 1}
	if won {
		return e
	}
	if f.morale > 0 {
		e.morale = min(1, float64(s.MoraleLeft())/float64(f.morale))
	}
	heaviest := 0
	for i := range s.Seats() {
		heaviest = max(heaviest, s.Weight(game.Seat(i)))
	}
	e.knocks = max(0, 1-float64(heaviest)/4)
	return e
}

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

// Gain is what one move gains over another, in the coach's words.
type Gain uint8

const (
	GainNone    Gain = iota
	GainThreat       // the other move makes a third threat: the mission fails at once
	GainMission      // the mission fails less often
	GainLoss         // the game is lost less often in the missions ahead
	GainKnocks       // the soldiers keep hard knocks off
	GainMorale       // the team keeps more morale cards
	GainOdds         // nothing of these by much: the cards left play better
)

// Why is the one reason the coach gives for a move over another.
type Why struct {
	Gain Gain `json:"gain,omitempty"`
	// FailsAnyway: the mission fails with both moves (the game all but
	// lost): the move is chosen for what it keeps.
	FailsAnyway bool `json:"fails_anyway,omitempty"`
}

// whyMin is the least difference (a share of the deals, or of morale or
// weight kept) that a reason names; below it the reason is the odds.
const whyMin = 0.03

// why says what choice a gains over choice b in search o (first n
// samples): the largest of its paired differences in the mission's
// failure, the game's loss ahead, the hard knocks and the morale. When
// hopeless, the mission is not counted (the standing does not weigh it),
// nor said to fail either way once it is over (a benefit's choice: "the
// mission fails either way" read, after a failed one, as a forecast).
func why(o *outcomes, a, b, n int, hopeless bool) Why {
	mean := func(xs []float64, j int) float64 { return col(xs, o, j, n) }
	failA, failB := mean(o.fail, a), mean(o.fail, b)
	w := Why{FailsAnyway: hopeless && !o.decided && failA > 0.95 && failB > 0.95}
	type gain struct {
		g Gain
		d float64
	}
	gains := []gain{
		{GainLoss, mean(o.lost, b) - mean(o.lost, a)},
		{GainKnocks, (mean(o.knocks, a) - mean(o.knocks, b)) / 2},
		{GainMorale, (mean(o.morale, a) - mean(o.morale, b)) / 2},
	}
	if !w.FailsAnyway {
		g := GainMission
		if failB > 0.999 && failA < failB {
			g = GainThreat // b fails it in every deal: at once
		}
		gains = append([]gain{{g, failB - failA}}, gains...)
	}
	best := gain{GainOdds, whyMin}
	for _, x := range gains {
		if x.d > best.d {
			best = x
		}
	}
	w.Gain = best.g
	return w
}
