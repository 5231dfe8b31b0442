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
// strength wins with: logit p = a + b·logit raw, a and b from the team
// and the table (calibrationFit).
type calibration struct{ a, b float64 }

// numCalFeatures is the length of calFeatures.
const numCalFeatures = 17

// calibrationFit are the coefficients of a logistic regression of the
// game's result on calFeatures, fitted on the chances kept by
// `go run ./games/grizzled/calibrate` (TestCalibrationFit says how).
var calibrationFit = [numCalFeatures]float64{0.2114, 0.7414, -1.4316, 0.1433, 0.4735, 0.1071, 0.4017, 0.4958, 0.1241, -0.0383, 0.2814, -0.0784, 0.5694, -0.0196, 0.1173, 0.0702, 0.1212}

// rawFloor keeps a raw mean off 0 and 1: every playout of the look-ahead
// lost (or won) is not a game decided, as a stronger team plays on.
const rawFloor = 0.002

// calFeatures describes a chance for the calibration: the raw mean's
// logit, the share of soldiers an easy bot plays, the table's size, the
// cards left to clear, and the products the fit needs.
func calFeatures(raw float64, soldiers, easy, left, morale, trials int) [numCalFeatures]float64 {
	r := min(max(raw, rawFloor), 1-rawFloor)
	x := math.Log(r / (1 - r))
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
	// The features are linear in the raw mean's logit: a is z at a logit
	// of 0, b what a logit of 1 adds.
	z := func(raw float64) float64 {
		f := calFeatures(raw, soldiers, t.Easy, v.Trials+handsLeft(v), v.Morale, v.Options.Trials(soldiers))
		sum := 0.0
		for j, x := range f {
			sum += calibrationFit[j] * x
		}
		return sum
	}
	c := calibration{a: z(0.5)}
	c.b = z(1/(1+math.Exp(-1))) - c.a
	return c
}

// shown is the chance shown for a raw mean.
func (c calibration) shown(raw float64) float64 {
	r := min(max(raw, rawFloor), 1-rawFloor)
	return 1 / (1 + math.Exp(-(c.a + c.b*math.Log(r/(1-r)))))
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
