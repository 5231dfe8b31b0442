package grizzbot

import (
	"reflect"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// reviewBudget is reproducible (no time cap) and small enough for tests.
var reviewBudget = ReviewConfig{Samples: 96}

// playRecorded plays a game with easy bots in every seat but seat 0, which
// the strong bot plays, and returns its moves. blunder, if not nil, may replace seat 0's chosen action once (it
// sees the state and the legal actions and returns the replacement, or ok
// false); at is 1 + the index of the replaced move, 0 if none.
func playRecorded(t *testing.T, s *g.State, seed uint64, blunder func(s *g.State, legal []g.Action) (g.Action, bool)) (moves []Move, at int) {
	t.Helper()
	easy, strong := NewEasy(), NewStrong(DefaultStrong)
	var buf []g.Action
	for n := 0; n < MaxActions; n++ {
		if _, over := s.Over(); over {
			return moves, at
		}
		seat := firstWaiting(s)
		buf = s.AppendLegal(buf[:0], seat)
		act := buf[0]
		if len(buf) > 1 {
			bot := game.Bot(easy)
			if seat == 0 {
				bot = strong
			}
			a, _ := bot.Act(s.View(seat), mix(seed, uint64(n)))
			act = a.(g.Action)
		}
		if blunder != nil && seat == 0 && at == 0 {
			if b, ok := blunder(s, slices.Clone(buf)); ok {
				act, at = b, len(moves)+1
			}
		}
		moves = append(moves, Move{Seat: seat, Action: act})
		if err := s.Step(seat, act); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game did not end")
	return nil, 0
}

// failsMission reports whether playing a from s makes the mission fail
// at once (a third identical threat in No Man's Land).
func failsMission(s *g.State, seat game.Seat, a g.Action) bool {
	c := s.Clone()
	return c.Step(seat, a) == nil && c.Failed() && !s.Failed()
}

// A play that makes the first mission fail (a third identical threat)
// while a safe play was open is the blunder of a game the strong bot
// otherwise plays well for that seat: the review ranks it first among that
// player's decisions, as a sure mistake, with another move as the better
// choice. The games are the first three fixed deals that offer the blunder.
func TestReviewRanksAThirdThreatAsTheCostliestDecision(t *testing.T) {
	found := 0
	for seed := uint64(1); seed < 400 && found < 3; seed++ {
		blunder := func(s *g.State, legal []g.Action) (g.Action, bool) {
			if s.Phase() != g.PhaseTurn || s.Round() > 1 {
				return g.Action{}, false
			}
			var bad, safe bool
			var b g.Action
			for _, a := range legal {
				if a.Kind != g.ActPlay {
					continue
				}
				if failsMission(s, 0, a) {
					bad, b = true, a
				} else {
					safe = true
				}
			}
			return b, bad && safe
		}
		moves, at := playRecorded(t, newGame(t, 3, g.Standard, seed), seed, blunder)
		if at == 0 {
			continue
		}
		found++
		r, err := ReviewGame(newGame(t, 3, g.Standard, seed), moves, func(s game.Seat) bool { return s == 0 }, reviewBudget, nil)
		if err != nil {
			t.Fatal(err)
		}
		worst := r.Costliest(0, 3)
		if len(worst) == 0 || worst[0].Index != at {
			t.Fatalf("seed %d: the blunder is move %d; the costliest decisions are %+v", seed, at, worst)
		}
		d := worst[0]
		if d.Best.Kind == g.ActPlay && d.Best.Card == d.Made.Card {
			t.Errorf("seed %d: the better choice is the blunder itself: %+v", seed, d)
		}
		if !d.Mistake() || d.Cost.P < 0.05 {
			t.Errorf("seed %d: the blunder costs only %+v", seed, d.Cost)
		}
		if d.Grade() != GradeBlunder && d.Grade() != GradeMistake {
			t.Errorf("seed %d: the blunder is graded %d", seed, d.Grade())
		}
		if d.Why.Gain != GainThreat && d.Why.Gain != GainMission {
			t.Errorf("seed %d: the better move is not said to save the mission: %+v", seed, d.Why)
		}
		t.Logf("seed %d: move %d costs %.0f%% (%.0f–%.0f), %d samples", seed, at, 100*d.Cost.P, 100*d.Cost.Lo, 100*d.Cost.Hi, d.Cost.N)
	}
	if found < 3 {
		t.Fatalf("only %d games offered the blunder", found)
	}
}

// A rating reads only what the player could see: a state with other hidden
// cards (other hands, the trials pile, the tiles) but the same view gives
// the very same rating with the same seed.
func TestReviewNeverReadsHiddenCards(t *testing.T) {
	moves, _ := playRecorded(t, newGame(t, 4, g.Standard, 11), 11, nil)
	s := newGame(t, 4, g.Standard, 11)
	checked := 0
	for i, m := range moves {
		v := s.View(m.Seat)
		if len(v.Legal) > 1 && v.Phase == g.PhaseTurn && checked < 4 {
			other := g.Determinize(v, uint64(1000+i)) // the same view, other hidden cards
			if other == nil {
				t.Fatal("no determinization")
			}
			if !slices.Equal(other.Hand(m.Seat), s.Hand(m.Seat)) {
				t.Fatalf("move %d: the other state changed the player's own hand", i)
			}
			differs := false
			for j := range s.Seats() {
				if game.Seat(j) != m.Seat && !slices.Equal(other.Hand(game.Seat(j)), s.Hand(game.Seat(j))) {
					differs = true
				}
			}
			if !differs {
				continue // the draw happened to deal the same hidden cards: try another moment
			}
			ov := other.View(m.Seat)
			a1, ok1 := Assess(v, m.Action, reviewBudget)
			a2, ok2 := Assess(ov, m.Action, reviewBudget)
			if !ok1 || !ok2 || !reflect.DeepEqual(a1, a2) {
				t.Fatalf("move %d: the rating changed with the hidden cards:\n%+v\n%+v", i, a1, a2)
			}
			checked++
		}
		if err := s.Step(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no decision was checked")
	}
}

// The same view and seed give the same rating; the budget is the number of
// samples behind every estimate; a made move that is not legal is refused.
func TestAssessIsReproducibleAndBounded(t *testing.T) {
	s := newGame(t, 2, g.Standard, 21)
	seat := firstWaiting(s)
	v := s.View(seat)
	a1, ok := Assess(v, v.Legal[0], reviewBudget)
	if !ok {
		t.Fatal("no rating")
	}
	a2, _ := Assess(v, v.Legal[0], reviewBudget)
	if !reflect.DeepEqual(a1, a2) {
		t.Fatalf("not reproducible:\n%+v\n%+v", a1, a2)
	}
	if a1.MadeP.N != reviewBudget.Samples || a1.Choices != len(v.Legal) {
		t.Errorf("samples %d choices %d", a1.MadeP.N, a1.Choices)
	}
	for _, e := range []Estimate{a1.MadeP, a1.BestP} {
		if e.Lo < 0 || e.Hi > 1 || e.Lo > e.P || e.P > e.Hi {
			t.Errorf("estimate out of bounds: %+v", e)
		}
	}
	if a1.BestP.P+1e-9 < a1.MadeP.P || a1.Cost.P < -1e-9 {
		t.Errorf("the best is worse than the move made: %+v", a1)
	}
	if _, ok := Assess(v, g.Action{Kind: g.ActBenefitDecline}, reviewBudget); ok {
		t.Error("an illegal move was rated")
	}
}

// A hint names a legal action, the best by its own estimate.
func TestHintNamesTheBestLegalAction(t *testing.T) {
	s := newGame(t, 4, g.Standard, 5)
	v := s.View(firstWaiting(s))
	ad, ok := Hint(v, ReviewConfig{Samples: 48})
	if !ok {
		t.Fatal("no hint")
	}
	best, next, bp, np := ad.Best, ad.Next, ad.BestP, ad.NextP
	if !slices.ContainsFunc(v.Legal, func(a g.Action) bool { return SameAction(a, best) }) || SameAction(best, next) {
		t.Fatalf("hint %+v next %+v", best, next)
	}
	if bp.P+1e-9 < np.P {
		t.Fatalf("the hint (%v) is worse than the next choice (%v)", bp, np)
	}
}

// Moves a bot made in a person's place (the turn clock ran out, or the
// seat was given up) are not the person's decisions: the review rates
// seat 0's own moves only, counts only them in its progress, and counts
// the bot's choices for seat 0 apart (forced moves are nobody's decision).
func TestReviewSkipsMovesABotMadeForThePlayer(t *testing.T) {
	const seed = 3
	moves, _ := playRecorded(t, newGame(t, 2, g.Standard, seed), seed, nil)
	own, total, botChoices := map[int]bool{}, 0, 0
	s := newGame(t, 2, g.Standard, seed)
	for i := range moves {
		if moves[i].Seat == 0 {
			moves[i].ByBot = total%2 == 1 // every other one of seat 0's moves
			if !moves[i].ByBot {
				own[i+1] = true
			} else if len(s.View(0).Legal) > 1 {
				botChoices++
			}
			total++
		}
		if err := s.Step(moves[i].Seat, moves[i].Action); err != nil {
			t.Fatal(err)
		}
	}
	cheap := ReviewConfig{Samples: 4}
	lastTotal := 0
	r, err := ReviewGame(newGame(t, 2, g.Standard, seed), moves, func(s game.Seat) bool { return s == 0 }, cheap, func(_, n int) bool {
		lastTotal = n
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// The progress counts what the summary does: the decisions rated,
	// not seat 0's forced moves too.
	if lastTotal != len(r.Decisions) || lastTotal >= len(own) {
		t.Errorf("progress counts %d decisions, the review rated %d (seat 0 made %d moves of its %d)", lastTotal, len(r.Decisions), len(own), total)
	}
	for _, d := range r.Decisions {
		if !own[d.Index] {
			t.Errorf("move %d, made by a bot for seat 0, was rated", d.Index)
		}
	}
	if len(r.Decisions) == 0 {
		t.Fatal("nothing rated")
	}
	if botChoices == 0 || !reflect.DeepEqual(r.StandIns, map[game.Seat]int{0: botChoices}) {
		t.Errorf("stand-in decisions %v, want seat 0's %d", r.StandIns, botChoices)
	}
	if r.Version != ReviewVersion {
		t.Errorf("version %d, want %d", r.Version, ReviewVersion)
	}
}
