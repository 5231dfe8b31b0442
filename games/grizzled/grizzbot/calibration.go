package grizzbot

import (
	"math"

	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// Team is who plays the soldiers from here on, as far as the chances go:
// the search plays on with the rule-based policy and judges with a value
// model fitted on its games, which says how often that policy would win
// from a position, not how often this team will.
type Team struct {
	// Easy counts the soldiers an easy bot plays. The others, people
	// (whom the coach takes to follow its advice) and strong bots, play
	// at the coach's level.
	Easy int
}

// TeamOf is the team whose seats are played by these bot levels, seat by
// seat ("" for a person).
func TeamOf(levels []string) Team {
	var t Team
	for _, l := range levels {
		if l == LevelEasy {
			t.Easy++
		}
	}
	return t
}

// calibration maps the search's raw mean (the value model's chance for
// the rule-based policy) to the chance shown, which a team of its
// strength wins with: logit p = a + b·logit raw + Σ bend_k·max(0, logit
// raw − calKnots[k]), a and b from the team and the table, the bends the
// same everywhere (calibrationFit).
type calibration struct {
	a, b float64
	bend [len(calKnots)]float64
}

// calKnots are the raw means' logits (raw 4.7%, 18%, 50%) where the map
// may bend: a straight line in the logit was too steep between 10% and
// 50% shown on every pile (the games there were won 1–3 points more often
// than shown, and 1–3 less often between 50% and 90%).
var calKnots = [...]float64{-3, -1.5, 0}

// numCalFeatures is the length of calFeatures.
const numCalFeatures = 17 + len(calKnots)

// calibrationFit are the coefficients of a logistic regression of the
// game's result on calFeatures, fitted on the chances kept by
// `go run ./games/grizzled/calibrate` (TestCalibrationFit says how).
var calibrationFit = [numCalFeatures]float64{1.6071, 1.1912, -1.3303, 0.1460, 0.3432, 0.0484, 0.3128, 0.4406, 0.0726, -0.0403, 0.2829, -0.0978, 0.4948, -0.0741, 0.0467, 0.0662, 0.0830, -0.4816, 0.0944, -0.0187}

// rawFloor keeps a raw mean off 0 and 1: every playout of the look-ahead
// lost (or won) is not a game decided, as a stronger team plays on.
const rawFloor = 0.002

// rawLogit is the logit of a raw mean kept off 0 and 1.
func rawLogit(raw float64) float64 {
	r := min(max(raw, rawFloor), 1-rawFloor)
	return math.Log(r / (1 - r))
}

// calFeatures describes a chance for the calibration: the raw mean's
// logit, the share of soldiers an easy bot plays, the table's size, the
// cards left to clear, and the products the fit needs; the last ones are
// the bends at calKnots.
func calFeatures(raw float64, soldiers, easy, left, morale, trials int) [numCalFeatures]float64 {
	x := rawLogit(raw)
	e := float64(easy) / float64(max(soldiers, 1))
	l := float64(left) / 10
	t := float64(trials-25) / 5
	f := [numCalFeatures]float64{1, x, e, e * x, 0, 0, 0, l, l * x, e * l, float64(morale) / 10, l * l, t, t * x}
	switch soldiers {
	case 2:
		f[4], f[14] = 1, x
	case 3:
		f[5], f[15] = 1, x
	case 5:
		f[6], f[16] = 1, x
	}
	for k, knot := range calKnots {
		f[numCalFeatures-len(calKnots)+k] = max(0, x-knot)
	}
	return f
}

// calibration is the map for this team at v's table.
func (t Team) calibration(v *g.SeatView) calibration {
	soldiers := 0
	for _, p := range v.Players {
		if !p.Chaplain {
			soldiers++
		}
	}
	return calibrationAt(soldiers, t.Easy, v.Trials+handsLeft(v), v.Morale, v.Options.Trials(soldiers))
}

// calibrationAt is the map at a table of these soldiers, easy ones, cards
// left, morale and starting pile.
func calibrationAt(soldiers, easy, left, morale, trials int) calibration {
	// Apart from the bends, the features are linear in the raw mean's
	// logit: a is z at a logit of 0, b what a logit of 1 adds.
	lin := numCalFeatures - len(calKnots)
	z := func(raw float64) float64 {
		f := calFeatures(raw, soldiers, easy, left, morale, trials)
		sum := 0.0
		for j, x := range f[:lin] {
			sum += calibrationFit[j] * x
		}
		return sum
	}
	c := calibration{a: z(0.5)}
	c.b = z(1/(1+math.Exp(-1))) - c.a
	copy(c.bend[:], calibrationFit[lin:])
	return c
}

// shown is the chance shown for a raw mean.
func (c calibration) shown(raw float64) float64 {
	x := rawLogit(raw)
	z := c.a + c.b*x
	for k, knot := range calKnots {
		z += c.bend[k] * max(0, x-knot)
	}
	return 1 / (1 + math.Exp(-z))
}

// estimate maps a raw estimate and its interval (the map is increasing,
// so the interval's ends map to the shown one's).
func (c calibration) estimate(e Estimate) Estimate {
	return Estimate{P: c.shown(e.P), Lo: c.shown(e.Lo), Hi: c.shown(e.Hi), N: e.N}
}

// cost maps a raw paired difference d (a better move's mean minus the
// move made's, made) to the difference shown: the better move's chance
// shown minus the move made's, its interval that of d taken from made.
func (c calibration) cost(made, d Estimate) Estimate {
	base := c.shown(made.P)
	at := func(x float64) float64 { return c.shown(min(max(made.P+x, 0), 1)) - base }
	return Estimate{P: at(d.P), Lo: at(d.Lo), Hi: at(d.Hi), N: d.N}
}
