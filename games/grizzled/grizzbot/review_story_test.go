package grizzbot

import (
	"math"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// The coach's story of a game must never mislead: these tests record games
// of two soldiers (seat 0 a person, played by a test policy; seat 1 the
// strong bot) and check the review against an independent replay.

// The budgets are small for speed; the hints rank 4 to 8 samples, a
// fraction of the review's, so that the review often knows better.
var (
	storyHint   = ReviewConfig{Samples: 8, MinSamples: 4}
	storyReview = ReviewConfig{Samples: 48, Hints: HintBudget{Samples: 8, MinSamples: 4}}
)

// chooser picks seat 0's move from its view (n counts the game's moves).
type chooser func(s *g.State, v g.SeatView, n int) g.Action

// record plays a two-soldier game: seat 0 by pick, the others by the
// one-size strong bot.
func record(t *testing.T, seed uint64, pick chooser) []Move {
	t.Helper()
	s := newGame(t, 2, g.Standard, seed)
	bot := NewStrong(DefaultStrong)
	var moves []Move
	for n := 0; n < MaxActions; n++ {
		if _, over := s.Over(); over {
			return moves
		}
		seat := firstWaiting(s)
		v := s.View(seat)
		act := v.Legal[0]
		switch {
		case len(v.Legal) == 1:
		case seat == 0:
			act = pick(s, v, n)
		default:
			a, _ := bot.Act(v, mix(seed, uint64(n)))
			act = a.(g.Action)
		}
		moves = append(moves, Move{Seat: seat, Action: act})
		if err := s.Step(seat, act); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game did not end")
	return nil
}

func seatZero(s game.Seat) bool { return s == 0 }

// truth is what an independent replay saw at each move (1-based).
type truth struct {
	choice   map[int]bool    // a choice of a seat other than 0
	failPlay map[int]bool    // a play by seat 1 made a third threat
	trap     map[int]bool    // the mission failed by the card a trap drew
	outcome  map[int]Outcome // the mission that ended at this move
	lost     map[int]g.Loss  // the game was lost at this move, and why
	starts   []int           // each mission's first move
	failed   []bool          // each mission's failure
}

func replay(t *testing.T, seed uint64, moves []Move) truth {
	t.Helper()
	tr := truth{choice: map[int]bool{}, failPlay: map[int]bool{}, trap: map[int]bool{}, outcome: map[int]Outcome{}, lost: map[int]g.Loss{}}
	s := newGame(t, 2, g.Standard, seed)
	for i, m := range moves {
		at := i + 1
		if s.Phase() == g.PhaseIntensity && len(tr.starts) < s.Round() {
			tr.starts = append(tr.starts, at)
			tr.failed = append(tr.failed, false)
		}
		if m.Seat != 0 && len(s.View(m.Seat).Legal) > 1 {
			tr.choice[at] = true
		}
		round, failed := s.Round(), s.Failed()
		c := s.Clone()
		if err := s.Step(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
		if !failed && s.Failed() {
			tr.failed[round-1] = true
			// a third threat by the card itself: playing it on a state
			// without traps' draws fails too
			byCard := false
			if m.Action.Kind == g.ActPlay {
				cnt := c.Counts()
				for th := range g.NumThreats {
					if m.Action.Card.HasThreat(g.Threat(th)) && cnt[th] == 2 {
						byCard = true
					}
				}
			}
			switch {
			case byCard && m.Seat != 0:
				tr.failPlay[at] = true
			case !byCard:
				tr.trap[at] = true
			}
		}
		if won, over := s.Over(); over && !won {
			tr.lost[at] = s.LossReason()
		}
		if _, ok := tr.outcome[round]; !ok {
			won, over := s.Over()
			l := s.View(game.Spectator).LastSupport
			switch {
			case l != nil && l.Round == round:
				tr.outcome[round] = map[bool]Outcome{true: Succeeded, false: Failed}[l.Success]
			case won:
				tr.outcome[round] = Succeeded
			case over:
				tr.outcome[round] = GameLost
			}
			if _, ok := tr.outcome[round]; ok {
				tr.outcome[-at] = tr.outcome[round] // the move it ended at
			}
		}
	}
	return tr
}

// checkStory checks r's turning points and mission lines against the
// replay: each names its real cause, and each mission's line starts
// before its first decision and says how it ended.
func checkStory(t *testing.T, seed uint64, moves []Move, r GameReview) {
	t.Helper()
	tr := replay(t, seed, moves)
	next := 0
	for k, tu := range r.Turns {
		if k > 0 && r.Turns[k-1].Cause == ByDecision {
			next-- // what followed a decision starts at its move
		}
		if k > 0 && tu.First != next {
			t.Errorf("turn %d covers moves %d..%d, after %d", k, tu.First, tu.Last, next-1)
		}
		next = tu.Last + 1
		any := func(set map[int]bool) bool {
			for i := tu.First; i <= tu.Last; i++ {
				if set[i] {
					return true
				}
			}
			return false
		}
		endedIn := Unfinished
		for i := tu.First; i <= tu.Last; i++ {
			if o, ok := tr.outcome[-i]; ok {
				endedIn = o
			}
		}
		switch tu.Cause {
		case ByDecision:
			d := r.Decisions[tu.Decision]
			if tu.First != d.Index || tu.Last != d.Index || !SameAction(tu.Action, d.Made) ||
				math.Abs(tu.To-tu.From+d.Cost.P) > 1e-9 {
				t.Errorf("turn %d: decision %+v is not its own cost %+v", k, tu, d.Cost)
			}
		case ByFailPlay:
			if !any(tr.failPlay) || tu.Seat == 0 {
				t.Errorf("turn %d blames a play that did not fail the mission: %+v", k, tu)
			}
		case ByTrap:
			if !any(tr.trap) || any(tr.failPlay) {
				t.Errorf("turn %d blames a trap: %+v", k, tu)
			}
		case ByOutcome:
			lostIn := g.LossNone
			for i := tu.First; i <= tu.Last; i++ {
				lostIn = max(lostIn, tr.lost[i])
			}
			if endedIn == Unfinished && lostIn == g.LossNone || endedIn != Unfinished && endedIn != tu.Outcome ||
				tu.Loss != lostIn || any(tr.trap) || any(tr.failPlay) {
				t.Errorf("turn %d says mission %d ended %d (lost: %q); the replay: %d (lost: %q)", k, tu.Mission, tu.Outcome, tu.Loss, endedIn, lostIn)
			}
		case ByMove:
			if !any(tr.choice) || any(tr.trap) || any(tr.failPlay) || endedIn != Unfinished || tu.Seat == 0 {
				t.Errorf("turn %d blames another seat's move: %+v", k, tu)
			}
		case ByCards:
			if any(tr.choice) || any(tr.trap) || any(tr.failPlay) || endedIn != Unfinished {
				t.Errorf("turn %d blames the cards though something was decided: %+v", k, tu)
			}
		default:
			t.Errorf("turn %d has no cause: %+v", k, tu)
		}
	}
	if next != len(moves)+1 {
		t.Errorf("the turns end at move %d of %d", next-1, len(moves))
	}
	if len(r.Lines) != len(tr.starts) {
		t.Fatalf("%d mission lines for %d missions", len(r.Lines), len(tr.starts))
	}
	for i, l := range r.Lines {
		if l.Index != tr.starts[i] || l.Mission != i+1 {
			t.Errorf("mission %d's line starts at move %d, the mission at %d", l.Mission, l.Index, tr.starts[i])
		}
		for _, d := range r.Decisions {
			if d.Mission == l.Mission && d.Index < l.Index {
				t.Errorf("mission %d's line starts after its decision at move %d", l.Mission, d.Index)
			}
		}
		if want := tr.outcome[i+1]; l.Outcome != want {
			t.Errorf("mission %d ended %d, its line says %d", l.Mission, want, l.Outcome)
		}
		lost := g.LossNone
		if i == len(r.Lines)-1 {
			for _, why := range tr.lost {
				lost = why
			}
		}
		if l.Loss != lost {
			t.Errorf("mission %d: the game was lost as it ended by %q, its line says %q", l.Mission, lost, l.Loss)
		}
	}
}

// hinted follows the coach's hints.
func hinted(s *g.State, v g.SeatView, n int) g.Action {
	ad, _ := Hint(v, storyHint)
	return ad.Best
}

// blunders plays as the strong bot but withdraws on its first turn with
// four cards, and once plays a card that fails the mission while other
// moves were open.
func blunders(seed uint64) chooser {
	bot := NewStrong(DefaultStrong)
	withdrew, failed := false, false
	return func(s *g.State, v g.SeatView, n int) g.Action {
		if v.Phase == g.PhaseTurn && !withdrew && len(v.Hand) >= 4 {
			withdrew = true
			if i := slices.IndexFunc(v.Legal, func(a g.Action) bool { return a.Kind == g.ActWithdraw }); i >= 0 {
				return v.Legal[i]
			}
		}
		if v.Phase == g.PhaseTurn && withdrew && !failed && v.Round > 1 {
			for _, a := range v.Legal {
				if a.Kind == g.ActPlay && failsMission(s, 0, a) {
					failed = true
					return a
				}
			}
		}
		a, _ := bot.Act(v, mix(seed, uint64(n)))
		return a.(g.Action)
	}
}

func review(t *testing.T, seed uint64, moves []Move) GameReview {
	t.Helper()
	r, err := ReviewGame(newGame(t, 2, g.Standard, seed), moves, seatZero, storyReview, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Games that follow the hints: no move a hint named is reviewed as a
// clear mistake, though the review's larger sample would have called some
// of them one, and the story checks out.
func TestReviewNeverCallsAHintedMoveAMistake(t *testing.T) {
	overruled := 0
	for _, seed := range []uint64{7, 9} {
		moves := record(t, seed, hinted)
		r := review(t, seed, moves)
		checkStory(t, seed, moves, r)
		for _, d := range r.Decisions {
			if !d.Hinted || d.Mistake() {
				t.Errorf("seed %d: the hinted move %d (%+v) is reviewed hinted %v, mistake %v", seed, d.Index, d.Made, d.Hinted, d.Mistake())
			}
			if !SameAction(d.Made, d.Best) || d.Cost.P != 0 {
				t.Errorf("seed %d: the hinted move %d is not the coach's own: %+v", seed, d.Index, d.Assessment)
			}
		}
		// The same review without hints to agree with.
		cfg := storyReview
		cfg.Hints = HintBudget{}
		alone, err := ReviewGame(newGame(t, 2, g.Standard, seed), moves, seatZero, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range alone.Decisions {
			if d.Mistake() {
				overruled++
			}
		}
	}
	if overruled == 0 {
		t.Error("no hinted move would have been a mistake by the review's own sample: the test proves nothing")
	}
}

// The blunders (withdrawing on the first turn with four cards; playing a
// card that fails the mission with other moves open) are the player's
// costliest decisions, and the mission they failed says so.
func TestReviewBlamesTheBlunders(t *testing.T) {
	const seed = 4
	moves := record(t, seed, blunders(seed))
	r := review(t, seed, moves)
	checkStory(t, seed, moves, r)
	var fail *Decision
	for i, d := range r.Decisions {
		if d.Made.Kind == g.ActPlay && d.Turn > 0 && r.Decisions[i].Mission > 1 {
			s := newGame(t, 2, g.Standard, seed)
			for _, m := range moves[:d.Index-1] {
				_ = s.Step(m.Seat, m.Action)
			}
			if failsMission(s, 0, d.Made) {
				fail = &r.Decisions[i]
			}
		}
	}
	if fail == nil {
		t.Fatal("no failing play was made")
	}
	t.Logf("failing play: %+v", *fail)
	if !fail.Mistake() {
		t.Errorf("the failing play is not a mistake: %+v", fail.Assessment)
	}
	// Its trap drew the third threat here, in most deals but not all: the
	// better move is said to fail the mission less often.
	if fail.Why.Gain != GainThreat && fail.Why.Gain != GainMission {
		t.Errorf("the failing play's better move is not said to save the mission: %+v", fail.Why)
	}
	for _, l := range r.Lines {
		t.Logf("mission %d: %.0f%% from move %d, outcome %d", l.Mission, 100*l.Start.P, l.Index, l.Outcome)
	}
	for _, tu := range r.Turning(3) {
		t.Logf("turn: %+v", tu)
	}
}

// A game all but lost early still teaches: once the chances are under
// Hopeless, decisions are judged by the team's standing, and some of the
// player's choices there are named with a better one.
func TestReviewOfALostGameStillTeaches(t *testing.T) {
	const seed = 4
	moves := record(t, seed, blunders(seed))
	r := review(t, seed, moves)
	hopeless, named := 0, 0
	for _, d := range r.Decisions {
		if !d.Hopeless {
			continue
		}
		hopeless++
		if d.CostS.N == 0 || d.BestS.P+1e-9 < d.MadeS.P {
			t.Errorf("move %d: the standing is not judged: %+v", d.Index, d.Assessment)
		}
		if d.Mistake() {
			named++
			t.Logf("move %d (mission %d): %v → %v, standing %.0f → %.0f (±%.0f)", d.Index, d.Mission, d.Made, d.Best,
				100*d.MadeS.P, 100*d.BestS.P, 100*(d.CostS.Hi-d.CostS.P))
		}
	}
	t.Logf("%d decisions, %d judged by the standing, %d named", len(r.Decisions), hopeless, named)
	if hopeless == 0 || named == 0 {
		t.Fatalf("a game lost early teaches nothing: %d decisions judged by the standing, %d named", hopeless, named)
	}
	if got := r.Costliest(0, 3); len(got) == 0 {
		t.Fatal("no costly decision named")
	}
}

// A game lost as its last mission ended: the mission's line and its
// turning point say how the mission went (its support) and that the game
// was lost, and why, as the rules end it (L-1 or M-4 after the support).
func TestReviewSaysTheGameWasLostAfterTheMission(t *testing.T) {
	const seed = 4
	moves := record(t, seed, blunders(seed))
	s := newGame(t, 2, g.Standard, seed)
	for _, m := range moves {
		if err := s.Step(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
	}
	last := s.View(game.Spectator).LastSupport
	if won, _ := s.Over(); won || last == nil || last.Round != s.Round() {
		t.Fatalf("the game was not lost after a support: won %v, support %+v in mission %d", won, last, s.Round())
	}
	r := review(t, seed, moves)
	checkStory(t, seed, moves, r)
	l := r.Lines[len(r.Lines)-1]
	want := map[bool]Outcome{true: Succeeded, false: Failed}[last.Success]
	if l.Outcome != want || l.Loss != s.LossReason() {
		t.Errorf("the last mission's line says %d, lost by %q; the game: %d, lost by %q", l.Outcome, l.Loss, want, s.LossReason())
	}
	tu := r.Turns[len(r.Turns)-1]
	if tu.Cause != ByOutcome || tu.Outcome != want || tu.Loss != s.LossReason() || tu.To != 0 {
		t.Errorf("the last turn is not the loss after the mission: %+v", tu)
	}
	t.Logf("mission %d: support success %v, lost by %q", s.Round(), last.Success, s.LossReason())
}

// When a hint names a move and the review's own best is not surely better
// than it, the review names the hint's move as the better one: a player
// is not told "the coach says X" at the table and "Y" after the game for
// a near tie.
func TestReviewNamesTheHintsMoveWithinTheMargin(t *testing.T) {
	const seed = 4
	moves := record(t, seed, blunders(seed))
	r := review(t, seed, moves)
	alone := storyReview
	alone.Hints = HintBudget{}
	s := newGame(t, 2, g.Standard, seed)
	named, checked := 0, 0
	for i, m := range moves {
		for _, d := range r.Decisions {
			if d.Index != i+1 || d.Hinted || SameAction(d.Best, d.Made) {
				continue
			}
			v := s.View(m.Seat)
			hint, _ := Hint(v, storyHint)
			checked++
			if SameAction(d.Best, hint.Best) {
				named++
				continue
			}
			// The review named its own best: it must be surely better
			// than the hint's move, by the review's samples.
			a, _ := Assess(v, hint.Best, alone)
			by := a.Cost
			if a.Hopeless {
				by = a.CostS
			}
			if !SameAction(a.Best, d.Best) || by.Lo <= 0 {
				t.Errorf("move %d: the review names %v, the hint %v, which is within the margin (%+v)", d.Index, d.Best, hint.Best, a)
			}
		}
		if err := s.Step(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d decisions with a better move; the hint's named in %d", checked, named)
	if named == 0 {
		t.Error("no review named the hint's move: the test proves nothing")
	}
}

// In the lost positions of a game thrown early, the hints name a reason
// for their move, and where the move fails the mission, that it fails
// either way or what the move keeps; a benefit's, its mission over, never
// that the mission fails either way (after a failed mission it read as a
// forecast of the next).
func TestHopelessHintsSayWhy(t *testing.T) {
	const seed = 4
	moves := record(t, seed, blunders(seed))
	s := newGame(t, 2, g.Standard, seed)
	hopeless, failing, benefits := 0, 0, 0
	for _, m := range moves {
		if v := s.View(m.Seat); m.Seat == 0 && len(v.Legal) > 1 {
			ad, _ := Hint(v, storyReview)
			if ad.Hopeless {
				hopeless++
				if ad.Why.Gain == GainNone {
					t.Errorf("move %v: a lost position's hint gives no reason: %+v", ad.Best, ad.Why)
				}
				if v.Phase == g.PhaseBenefit {
					benefits++
					if ad.Why.FailsAnyway {
						t.Errorf("a benefit's hint says the mission fails either way: the mission is over: %+v", ad.Why)
					}
				}
				if failsMission(s, 0, ad.Best) {
					failing++
					if ad.Why.Gain == GainMission || ad.Why.Gain == GainThreat {
						t.Errorf("move %v fails the mission, yet its reason is the mission: %+v", ad.Best, ad.Why)
					}
				}
			}
		}
		if err := s.Step(m.Seat, m.Action); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d hopeless hints, %d of them failing the mission, %d of a benefit", hopeless, failing, benefits)
	if hopeless == 0 {
		t.Fatal("no hopeless hint: the test proves nothing")
	}
}
