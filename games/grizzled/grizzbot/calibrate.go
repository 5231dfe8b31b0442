package grizzbot

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/sim"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// Calibration: how often a team wins, against the chance the coach showed.
// A batch plays games in which seat 0 is a person who asks the coach at
// every decision and (mostly) does what it says, and bots of one level
// play the other seats; every chance the coach shows on the way (each
// mission's start, each hint, and the chance of a move made against the
// hint, as the review's chart shows it) is kept with the game's result.
// `go run ./games/grizzled/calibrate` prints them by decile.

// Pile is which trials pile a calibration batch plays.
type Pile string

const (
	PileStandard Pile = "standard" // standard rules: 25 trials (20 with two soldiers)
	PileVeteran  Pile = "veteran"  // veteran rules: 30 trials
	PileCampaign Pile = "campaign" // a campaign's games: standard rules, 20 to 30 trials
)

// Piles are the piles a calibration plays, in print order.
var Piles = []Pile{PileStandard, PileVeteran, PileCampaign}

// campaignPiles are the piles a campaign's games start with (§6.5): from
// the first game's up by two a win, to 30.
func campaignPiles(soldiers int) []int {
	var out []int
	for n := g.CampaignStart(soldiers); n < g.CampaignMax; n += 2 {
		out = append(out, n)
	}
	return append(out, g.CampaignMax)
}

// CalibrationConfig is one batch.
type CalibrationConfig struct {
	Pile  Pile
	Level string // the bots' level at the other seats
	Games int
	Seed  uint64 // game i is seeded from Seed and i alone
	// Workers play games at once.
	Workers int
	// Budget is the coach's per chance shown: a hint's, without its time
	// cap, so that a batch is the same on any machine.
	Budget ReviewConfig
}

// CalibrationBudget is a hint's budget without the time cap.
var CalibrationBudget = ReviewConfig{Samples: DefaultHint.Samples}

// Weak play: one game in weakEvery (by its index, the fourth of every
// four player counts) has the person ignore the hint at random, one
// decision in weakShare, for a move drawn from the others.
const (
	weakEvery = 4
	weakShare = 3
)

// PointKind is where a chance was shown.
type PointKind uint8

const (
	PointStart PointKind = iota + 1 // a mission's start (the chart; a hint there when the person leads)
	PointHint                       // a hint: the coach's move's chance
	PointMade                       // a move other than the hint's: its chance on the review's chart
)

// CalibrationPoint is one chance shown and how the game ended.
type CalibrationPoint struct {
	Game     int       `json:"game"`
	Kind     PointKind `json:"kind"`
	Raw      float64   `json:"raw"`   // the search's mean, before calibration
	Shown    float64   `json:"shown"` // the chance shown
	Won      bool      `json:"won"`
	Soldiers int       `json:"soldiers"`
	Easy     int       `json:"easy"`   // soldiers an easy bot plays
	Weak     bool      `json:"weak"`   // the person ignored hints at random
	Trials   int       `json:"trials"` // the pile the game started with
	Round    int       `json:"round"`
	Left     int       `json:"left"` // cards left to clear (trials and hands)
	Morale   int       `json:"morale"`
}

// CalibrationResult is a batch's points.
type CalibrationResult struct {
	Config      CalibrationConfig
	Points      []CalibrationPoint
	Games, Wins int
	Interrupted bool
}

// Calibrate plays c's games on c.Workers goroutines until ctx ends; tick
// hears how many games are done, then -1.
func Calibrate(ctx context.Context, c CalibrationConfig, tick func(done int)) (CalibrationResult, error) {
	if !slices.Contains(Piles, c.Pile) {
		return CalibrationResult{}, fmt.Errorf("unknown pile %q (standard, veteran or campaign)", c.Pile)
	}
	if !slices.Contains((Bots{}).Levels(), c.Level) {
		return CalibrationResult{}, fmt.Errorf("unknown bot level %q for grizzled (%s)", c.Level, strings.Join((Bots{}).Levels(), ", "))
	}
	if c.Budget.Samples == 0 {
		c.Budget = CalibrationBudget
	}
	c.Budget.TimeCap = 0
	type result struct {
		points []CalibrationPoint
		won    bool
		err    error
	}
	games := make([]result, c.Games)
	ran := sim.Run(ctx, c.Workers, c.Games, func() func(int) int {
		bots := make([]game.Bot, 5)
		for j := range bots {
			bots[j], _ = (Bots{}).New(c.Level) // the level was checked above
		}
		return func(i int) int {
			pts, won, err := calibrationGame(c, i, bots)
			games[i] = result{pts, won, err}
			return 1
		}
	}, tick)
	res := CalibrationResult{Config: c}
	for i, r := range games {
		if !ran[i] {
			res.Interrupted = true
			continue
		}
		if r.err != nil {
			return res, fmt.Errorf("game %d (seed %d): %w", i, sim.Seed(c.Seed, i), r.err)
		}
		res.Games++
		if r.won {
			res.Wins++
		}
		res.Points = append(res.Points, r.points...)
	}
	return res, nil
}

// calibrationGame plays game i of batch c: seat 0 the person, bots at the
// others.
func calibrationGame(c CalibrationConfig, i int, bots []game.Bot) ([]CalibrationPoint, bool, error) {
	seed := sim.Seed(c.Seed, i)
	soldiers := 2 + i%4
	weak := (i/4)%weakEvery == weakEvery-1
	opts := g.Options{Variant: g.Standard, Leader: game.NoSeat}
	switch c.Pile {
	case PileVeteran:
		opts.Variant = g.Veteran
	case PileCampaign:
		piles := campaignPiles(soldiers)
		opts.StartingTrials = piles[int(mix(seed, 0xca)%uint64(len(piles)))]
	}
	names := make([]string, soldiers)
	for j := range names {
		names[j] = fmt.Sprintf("Soldier %d", j+1)
	}
	s, _, err := g.NewGame(names, opts, seed)
	if err != nil {
		return nil, false, err
	}
	cfg := c.Budget
	if c.Level == LevelEasy {
		cfg.Team = Team{Easy: soldiers - 1}
	}
	var pts []CalibrationPoint
	point := func(kind PointKind, v *g.SeatView, raw float64) {
		pts = append(pts, CalibrationPoint{Game: i, Kind: kind, Raw: raw, Shown: cfg.Team.calibration(v).shown(raw),
			Soldiers: soldiers, Easy: cfg.Team.Easy, Weak: weak, Trials: s.StartingTrials(), Round: v.Round,
			Left: s.TrialsLeft() + handsLeft(v), Morale: s.MoraleLeft()})
	}
	r := rng(mix(seed, 0x3ea4))
	mission := 0
	var kept keptSearch
	var buf []g.Action
	for n := 0; n < MaxActions; n++ {
		if _, over := s.Over(); over {
			won, _ := s.Over()
			for j := range pts {
				pts[j].Won = won
			}
			return pts, won, nil
		}
		if s.Round() != mission && s.Phase() == g.PhaseIntensity {
			mission = s.Round()
			v := s.View(0)
			decider, choices := game.Seat(0), v.Legal
			if len(choices) < 2 {
				decider = firstWaiting(s)
				choices = s.AppendLegal(nil, decider)
			}
			if o := search(&v, decider, choices, cfg, DecisionSeed(&v)); o != nil {
				kept = keptSearch{seq: v.Seq, seat: decider, o: o}
				point(PointStart, &v, positionRaw(o))
			}
		}
		seat := firstWaiting(s)
		if seat < 0 {
			return nil, false, ErrStuck
		}
		buf = s.AppendLegal(buf[:0], seat)
		act := buf[0]
		switch {
		case len(buf) == 1:
		case seat == 0:
			v := s.View(0)
			o := kept.o
			if o == nil || kept.seq != v.Seq || kept.seat != 0 {
				o = search(&v, 0, v.Legal, cfg, DecisionSeed(&v))
				if o == nil {
					return nil, false, fmt.Errorf("seat 0's view at move %d cannot be searched", n+1)
				}
				point(PointHint, &v, positionRaw(o))
			}
			ad := advise(o, v.Legal, cfg.Team.calibration(&v))
			act = ad.Best
			if weak && r.next()%weakShare == 0 {
				others := slices.DeleteFunc(slices.Clone(v.Legal), func(a g.Action) bool { return SameAction(a, ad.Best) })
				act = others[r.next()%uint64(len(others))]
				j := slices.IndexFunc(v.Legal, func(a g.Action) bool { return SameAction(a, act) })
				point(PointMade, &v, col(o.win, o, j, o.n()))
			}
		default:
			a, ok := bots[seat].Act(s.View(seat), mix(seed, uint64(n)))
			if !ok {
				return nil, false, fmt.Errorf("%w: seat %d has nothing to do", ErrStuck, seat)
			}
			act = a.(g.Action)
		}
		if err := s.Step(seat, act); err != nil {
			return nil, false, fmt.Errorf("seat %d: %s: %w", seat, act.String(), err)
		}
	}
	return nil, false, fmt.Errorf("%w: no end after %d actions", ErrStuck, MaxActions)
}

// positionRaw is the raw chance of a position whose choices o searched:
// its best choice's mean.
func positionRaw(o *outcomes) float64 {
	n, best := o.n(), 0.0
	for j := range o.k {
		best = max(best, col(o.win, o, j, n))
	}
	return best
}

// handsLeft counts the cards in the soldiers' hands.
func handsLeft(v *g.SeatView) int {
	n := 0
	for _, p := range v.Players {
		if !p.Chaplain {
			n += p.HandSize
		}
	}
	return n
}

// Decile is one tenth of the range of chances shown.
type Decile struct {
	From, To  float64 // the chances shown in it: From ≤ p < To
	Count     int
	Games     int     // games the points came from
	Predicted float64 // the mean chance shown
	Observed  float64 // the share of its points whose game was won
	// Margin is the 95% margin of Observed − Predicted as its games make
	// it: a game's chances share its result, so the noise is that of its
	// games' summed misses, not of Count independent points.
	Margin float64
}

// Deciles buckets points by the chance shown.
func Deciles(points []CalibrationPoint) []Decile {
	out := make([]Decile, 10)
	miss := make([]map[int]float64, 10) // by game, the results less the chances shown
	for d := range out {
		out[d].From, out[d].To = float64(d)/10, float64(d+1)/10
		miss[d] = map[int]float64{}
	}
	for _, p := range points {
		d := min(int(p.Shown*10), 9)
		out[d].Count++
		out[d].Predicted += p.Shown
		y := 0.0
		if p.Won {
			out[d].Observed++
			y = 1
		}
		miss[d][p.Game] += y - p.Shown
	}
	for d := range out {
		out[d].Games = len(miss[d])
		if c := float64(out[d].Count); c > 0 {
			out[d].Predicted /= c
			out[d].Observed /= c
			ss := 0.0
			for _, m := range miss[d] {
				ss += m * m
			}
			out[d].Margin = 1.96 * math.Sqrt(ss) / c
		}
	}
	return out
}

// Brier is the mean squared difference between the chances shown and the
// results (0 is perfect; always saying the base rate b scores b(1−b)).
func Brier(points []CalibrationPoint) float64 {
	if len(points) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, p := range points {
		y := 0.0
		if p.Won {
			y = 1
		}
		sum += (p.Shown - y) * (p.Shown - y)
	}
	return sum / float64(len(points))
}
