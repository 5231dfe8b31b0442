package grizzbot

import (
	"errors"
	"math"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

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
	// Turn is the seat's own move in the mission this was (1-based,
	// forced moves counted): "mission 2, your 3rd move", as the player
	// saw it.
	Turn int `json:"turn"`
	Assessment
}

// Outcome is how a mission ended.
type Outcome int

const (
	Unfinished Outcome = iota
	Succeeded
	Failed
	// GameLost: the game was lost and no support said how the mission
	// went (a review made before Loss; the rules lose a game only after
	// a mission's support).
	GameLost
)

// MissionLine is one mission's course: the team's chances before its
// first move (after the previous mission's outcome) and how it ended.
// Its chances after its outcome are the next line's Start, or the game's
// result for the last.
type MissionLine struct {
	Mission int      `json:"mission"`
	Start   Estimate `json:"start"`
	Index   int      `json:"index"` // 1 + the number of actions before the mission
	Outcome Outcome  `json:"outcome"`
	// Loss, when the game was lost as the mission ended, is why: the
	// hard knocks (L-1) or the morale drop after it (M-4). The mission
	// itself still succeeded or failed (Outcome).
	Loss g.Loss `json:"loss,omitempty"`
}

// Cause is what moved the team's chances at a turning point.
type Cause int

const (
	// ByDecision: a rated decision, From its best move's chances To the
	// move made's (its cost against the best move).
	ByDecision Cause = iota + 1
	// ByMove: the moves of other seats (a bot's, or a player's made by a
	// bot in their place) since the last decision rated.
	ByMove
	// ByFailPlay: a seat's play made a third threat and failed the mission.
	ByFailPlay
	// ByTrap: a trap drew a card that failed the mission.
	ByTrap
	// ByOutcome: the mission ended (Outcome), with its support and the
	// morale it cost.
	ByOutcome
	// ByCards: nothing was decided: the cards the next seat holds or draws.
	ByCards
)

// Turn is a turning point: a change in the team's chances with its cause.
type Turn struct {
	Cause    Cause     `json:"cause"`
	Seat     game.Seat `json:"seat"`          // whose decision or move
	Bot      bool      `json:"bot,omitempty"` // the move was a bot's
	Action   g.Action  `json:"action"`        // the decision's or the move's
	Decision int       `json:"decision"`      // ByDecision: its index in Decisions
	Mission  int       `json:"mission"`
	Turn     int       `json:"turn"`              // the seat's move in the mission
	Outcome  Outcome   `json:"outcome,omitempty"` // ByOutcome
	Loss     g.Loss    `json:"loss,omitempty"`    // ByOutcome: the game was lost as it ended, and why
	From     float64   `json:"from"`
	To       float64   `json:"to"`
	// Margin is the change's 95% margin: a change within it may be the
	// estimates' noise, and is no turning point.
	Margin float64 `json:"margin,omitempty"`
	// At is where it lies among the decisions: the number of Decisions
	// made before it ends.
	At int `json:"at"`
	// First and Last are the actions it covers (1 + their index in the
	// game's moves). What follows a decision starts at the decision's own
	// move: the cards it drew, the mission it ended, are not the choice.
	First int `json:"first"`
	Last  int `json:"last"`
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
	// Lines are the missions' courses, in order.
	Lines []MissionLine `json:"lines,omitempty"`
	// Turns are every change of the team's chances along the game, each
	// with its cause, in game order (Turning picks the largest).
	Turns []Turn `json:"turns,omitempty"`
}

// ReviewVersion is the Version of a review ReviewGame makes today: a
// stored review of an older one lacks what it added and is made again.
// 1: StandIns. 2: the samples give every player the tiles everybody
// knows they hold (grizzled.PlayerView.KnownTiles). 3: decisions seeded
// as hints are and never a hinted move a mistake; the standing when the
// game is all but lost; missions' lines and turning points with causes.
// 4: one estimator (a mission's start is the search of its leader's
// choice), calibrated chances, turning points beyond their margin, grades,
// the hint's move named when within the margin, why a move is better.
// 5: the calibration bends (calKnots), refitted on 10,800 games.
// 6: a benefit's choice, its mission over, is never said to fail the
// mission "either way".
const ReviewVersion = 6

// ErrStopped is ReviewGame's answer when its progress function asked it to stop.
var ErrStopped = errors.New("grizzbot: review stopped")

// between is what happened since the last point of the chances' course.
type between struct {
	seat     game.Seat
	action   g.Action
	turn     int
	bot      bool
	moved    bool // some other seat made a choice
	failPlay bool // a play made a third threat
	trap     bool // a trap's card made one
	ended    bool // the mission ended
	outcome  Outcome
	loss     g.Loss
	mission  int
}

// course builds the turning points and mission lines while a game is
// replayed.
type course struct {
	r       *GameReview
	next    int      // 1 + the index of the next action
	first   int      // the first action since the last point
	started bool     // the course has its first point
	last    Estimate // the chances at the last point
	gap     between
}

// point ends the stretch since the last point at chances p: its change
// becomes a turn with the cause of what happened in it. The two
// estimates are of different samples: the change's margin is their
// margins' root sum of squares.
func (c *course) point(p Estimate, mission int) {
	b := c.gap
	if !c.started {
		c.started, c.last, c.gap, c.first = true, p, between{}, c.next
		return
	}
	t := Turn{Seat: b.seat, Action: b.action, Turn: b.turn, Bot: b.bot, Mission: mission, From: c.last.P, To: p.P,
		Margin: math.Hypot(c.last.Margin(), p.Margin()),
		At:     len(c.r.Decisions), Decision: -1, First: c.first, Last: c.next - 1}
	c.first = c.next
	switch {
	case b.failPlay:
		t.Cause, t.Mission = ByFailPlay, b.mission
	case b.trap:
		t.Cause, t.Mission = ByTrap, b.mission
	case b.ended:
		t.Cause, t.Mission, t.Outcome, t.Loss = ByOutcome, b.mission, b.outcome, b.loss
	case b.moved:
		t.Cause = ByMove
	default:
		t.Cause = ByCards
	}
	c.r.Turns = append(c.r.Turns, t)
	c.last, c.gap = p, between{}
}

// decided adds decision d (just appended to Decisions): its own change,
// from the best move's chances to the move made's.
func (c *course) decided(d Decision) {
	c.point(d.BestP, d.Mission)
	c.r.Turns = append(c.r.Turns, Turn{Cause: ByDecision, Seat: d.Seat, Action: d.Made, Decision: len(c.r.Decisions) - 1,
		Mission: d.Mission, Turn: d.Turn, From: d.BestP.P, To: d.MadeP.P, Margin: d.Cost.Margin(), At: len(c.r.Decisions),
		First: d.Index, Last: d.Index})
	c.last, c.first = d.MadeP, d.Index // what its move drew or ended follows it
}

// ReviewGame replays moves from start and rates every decision of a seat
// for which review is true (the people at the table; bots need no coach),
// but for the moves a bot made in a person's place, which it counts in
// StandIns when they were choices. Along the way it estimates the team's
// chances at each mission's start and records
// what moved the chances between decisions.
// progress, if not nil, hears after each rated decision how many of the
// total are done, and returns false to stop the review (ErrStopped).
// start is consumed.
func ReviewGame(start *g.State, moves []Move, review func(game.Seat) bool, cfg ReviewConfig, progress func(done, total int) bool) (GameReview, error) {
	rated := func(m Move) bool { return review(m.Seat) && !m.ByBot }
	total := decisions(start.Clone(), moves, rated)
	out := GameReview{Samples: cfg.Samples, Version: ReviewVersion}
	c := &course{r: &out}
	s, done := start, 0
	turns := map[game.Seat]int{} // each seat's moves in this mission
	var legal []g.Action
	var kept keptSearch // the last mission start's search
	mission := 0
	for i, m := range moves {
		c.next = i + 1
		if s.Round() != mission && s.Phase() == g.PhaseIntensity {
			mission = s.Round()
			clear(turns)
			p := missionStart(s, review, cfg, &kept)
			c.point(p, mission)
			out.Lines = append(out.Lines, MissionLine{Mission: mission, Start: p, Index: i + 1})
		}
		turns[m.Seat]++
		legal = s.AppendLegal(legal[:0], m.Seat)
		choice := len(legal) > 1
		if m.ByBot && review(m.Seat) && choice {
			if out.StandIns == nil {
				out.StandIns = map[game.Seat]int{}
			}
			out.StandIns[m.Seat]++
		}
		if rated(m) {
			v := s.View(m.Seat)
			if a, ok := assessKept(v, m.Action, cfg, kept); ok {
				d := Decision{Index: i + 1, Seat: m.Seat, Mission: v.Round, Turn: turns[m.Seat], Assessment: a}
				out.Decisions = append(out.Decisions, d)
				c.decided(d)
			}
			if choice {
				done++
				if progress != nil && !progress(done, total) {
					return out, ErrStopped
				}
			}
		} else if choice {
			c.gap.moved, c.gap.seat, c.gap.action, c.gap.turn, c.gap.bot = true, m.Seat, m.Action, turns[m.Seat], m.ByBot || !review(m.Seat)
		}
		round, phase, failed, counts := s.Round(), s.Phase(), s.Failed(), s.Counts()
		if err := s.Step(m.Seat, m.Action); err != nil {
			return out, err
		}
		if !failed && s.Failed() {
			c.gap.mission = round
			switch {
			case m.Action.Kind == g.ActPlay && thirdThreat(counts, m.Action.Card) && rated(m):
				// a rated decision: its cost already says what the play did
			case m.Action.Kind == g.ActPlay && thirdThreat(counts, m.Action.Card):
				c.gap.failPlay, c.gap.seat, c.gap.action, c.gap.turn = true, m.Seat, m.Action, turns[m.Seat]
				c.gap.bot = m.ByBot || !review(m.Seat)
			default:
				c.gap.trap = true
			}
		}
		if s.Round() == round && s.Phase() == phase {
			continue // a mission ends in a change of phase
		}
		if o := ended(s, round); o != Unfinished && (len(out.Lines) == 0 || out.Lines[len(out.Lines)-1].Outcome == Unfinished) {
			if n := len(out.Lines); n > 0 {
				out.Lines[n-1].Outcome = o
			}
			c.gap.ended, c.gap.outcome, c.gap.mission = true, o, round
		}
		if won, over := s.Over(); over && !won && len(out.Lines) > 0 {
			// lost after the support (L-1) or the morale drop (M-4), maybe
			// a benefit's move after the outcome was known
			l := &out.Lines[len(out.Lines)-1]
			if l.Outcome == Unfinished {
				l.Outcome = GameLost
			}
			l.Loss = s.LossReason()
			c.gap.ended, c.gap.outcome, c.gap.loss, c.gap.mission = true, l.Outcome, l.Loss, round
		}
	}
	c.next = len(moves) + 1
	out.Missions = s.Round()
	won, over := s.Over()
	out.Won = won
	if over {
		final := 0.0
		if won {
			final = 1
		}
		c.point(Estimate{P: final, Lo: final, Hi: final}, s.Round())
	}
	return out, nil
}

// decisions counts the moves rated that were choices (a forced move is
// no decision), as the review's progress counts them: replaying costs
// next to nothing beside rating.
func decisions(s *g.State, moves []Move, rated func(Move) bool) int {
	n := 0
	var legal []g.Action
	for _, m := range moves {
		if legal = s.AppendLegal(legal[:0], m.Seat); rated(m) && len(legal) > 1 {
			n++
		}
		if s.Step(m.Seat, m.Action) != nil {
			break
		}
	}
	return n
}

// thirdThreat reports whether card c, played with counts in No Man's Land,
// shows a threat that reaches three.
func thirdThreat(counts [g.NumThreats]int, c g.CardID) bool {
	for t := range counts {
		if cardMask[c]&(1<<t) != 0 && counts[t] >= 2 {
			return true
		}
	}
	return false
}

// ended is how mission round ended after the last move, or Unfinished.
func ended(s *g.State, round int) Outcome {
	won, over := s.Over()
	v := s.View(game.Spectator)
	if l := v.LastSupport; l != nil && l.Round == round {
		if l.Success {
			return Succeeded
		}
		return Failed
	}
	switch {
	case won:
		return Succeeded
	case over:
		return GameLost
	}
	return Unfinished
}

// missionStart is the team's chances at the start of a mission, as the
// first reviewed seat could judge them, by the coach's one estimator: the
// leader's choices of intensity searched from that seat's view, the best
// one's chance (the coach's move, whoever leads). When that seat leads,
// its search is the one its decision's review (and a hint there) makes,
// and it is kept for that decision (at).
func missionStart(s *g.State, review func(game.Seat) bool, cfg ReviewConfig, at *keptSearch) Estimate {
	seat := game.Seat(-1)
	for i := range s.Seats() {
		if review(game.Seat(i)) && game.Seat(i) != s.ChaplainSeat() && seat < 0 {
			seat = game.Seat(i)
		}
	}
	if seat < 0 {
		seat = 0
	}
	v := s.View(seat)
	decider, choices := seat, v.Legal
	if len(choices) < 2 {
		decider = firstWaiting(s)
		choices = s.AppendLegal(nil, decider)
	}
	o := search(&v, decider, choices, cfg, DecisionSeed(&v))
	if o == nil {
		return Estimate{}
	}
	*at = keptSearch{seq: v.Seq, seat: decider, o: o}
	return positionChance(o, cfg.Team.calibration(&v))
}

// assessKept is Assess, with the search kept from the mission's start
// when it was this very decision's.
func assessKept(v g.SeatView, made g.Action, cfg ReviewConfig, kept keptSearch) (Assessment, bool) {
	if kept.o == nil || kept.seq != v.Seq || kept.seat != v.Seat {
		return Assess(v, made, cfg)
	}
	mi := slices.IndexFunc(v.Legal, func(l g.Action) bool { return SameAction(l, made) })
	if len(v.Legal) < 2 || mi < 0 {
		return Assessment{}, false
	}
	return assess(kept.o, v.Legal, mi, cfg, cfg.Team.calibration(&v)), true
}

// keptSearch is a search kept for the decision it was made at.
type keptSearch struct {
	seq  int
	seat game.Seat
	o    *outcomes
}

// positionChance is the chance of a position whose choices o searched:
// the best choice's, shown.
func positionChance(o *outcomes, cal calibration) Estimate {
	n := o.n()
	best := 0
	for j := range o.k {
		if col(o.win, o, j, n) > col(o.win, o, best, n)+1e-9 {
			best = j
		}
	}
	return cal.estimate(estimate(o.col(o.win, best, n), 0, 1))
}

// Costliest returns up to n of seat's decisions, the most costly first,
// that are sure mistakes (Mistake). A decision judged by the standing
// (the game all but lost) ranks after those that cost the chance to win.
func (r GameReview) Costliest(seat game.Seat, n int) []Decision {
	var out []Decision
	for _, d := range r.Decisions {
		if d.Seat == seat && d.Mistake() {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Decision) int {
		switch {
		case a.Hopeless != b.Hopeless:
			if b.Hopeless {
				return -1
			}
			return 1
		case a.Loss() > b.Loss():
			return -1
		case a.Loss() < b.Loss():
			return 1
		}
		return 0
	})
	return out[:min(n, len(out))]
}

// Turning returns up to n turning points, the largest changes of the
// team's chances, in game order. A change within its margin (the
// estimates' noise) is none, nor is a decision as the coach would make it.
func (r GameReview) Turning(n int) []Turn {
	idx := make([]int, 0, len(r.Turns))
	for i, t := range r.Turns {
		if d := math.Abs(t.To - t.From); d >= 0.005 && d > t.Margin {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		da, db := math.Abs(r.Turns[a].To-r.Turns[a].From), math.Abs(r.Turns[b].To-r.Turns[b].From)
		switch {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return 0
	})
	idx = idx[:min(n, len(idx))]
	slices.Sort(idx)
	out := make([]Turn, len(idx))
	for k, i := range idx {
		out[k] = r.Turns[i]
	}
	return out
}
