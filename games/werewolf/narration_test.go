package werewolf

import (
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// The line that opens a night or a day is the same in the log and in the
// view (the other phases open with a line naming players, which the view
// keeps generic):
// plain mode says the log's line, then what the view narrates, and a
// screen reader heard night fall twice in two wordings ("Night 1 falls",
// then "Night falls").
func TestAPhaseIsNarratedInOneWording(t *testing.T) {
	x := deal(t, "W W X V V V V V", nil)
	check := func() {
		t.Helper()
		said := x.view(P4).Narration
		if !slices.ContainsFunc(x.all, func(e game.Event) bool {
			return e.Kind == game.Narration && e.Audience.All && e.Msg.Equal(said)
		}) {
			t.Errorf("%v, night %d: the view narrates %v, which the log never said", x.s.Phase, x.s.Night, said)
		}
	}
	check() // the first night falls as the game starts
	x.until(PhaseWolves)
	check()
	x.do(P1, sel(P4))
	x.until(PhaseDawn)
	check()
	x.until(PhaseNightFall)
	check()
}

// Every phase opens with one line, said alike by the log and the view: a
// phase opened for named players (the runoff's tied candidates, the tie
// the sheriff breaks, the hunter's last shot, the dying sheriff, the end)
// names them in the view too. A screen reader heard the log's "Tie between
// P1 and P2: runoff" and then the view's generic "Runoff between the tied
// candidates".
func TestEveryPhaseIsNarratedAsTheLogOpensIt(t *testing.T) {
	seen := map[Phase]bool{}
	for seed := range uint64(24) {
		opts := ClassicOptions()
		if seed%2 == 1 {
			opts.NightTiming = TimingFast
		}
		seq := ^uint64(0)
		randomGame(t, namesN(10), opts, seed, func(s *State, evs []game.Event) {
			if s.PhaseSeq == seq {
				return
			}
			seq = s.PhaseSeq
			seen[s.Phase] = true
			for seat := range s.Players {
				said := s.View(game.Seat(seat)).Narration
				if !slices.ContainsFunc(evs, func(e game.Event) bool {
					return e.Kind == game.Narration && e.Audience.All && e.Msg.Equal(said)
				}) {
					t.Fatalf("seed %d, %v: seat %d's view narrates %q, which the log did not say: %q",
						seed, s.Phase, seat, evText(game.Event{Msg: said}), public(evs))
				}
			}
		})
	}
	for _, p := range []Phase{PhaseNightFall, PhaseDawn, PhaseHunterShot, PhaseSheriffSuccession,
		PhaseSheriffRunoff, PhaseSheriffTiebreak, PhaseVerdict, PhaseGameOver} {
		if !seen[p] {
			t.Errorf("no game reached %v", p)
		}
	}
}

// A player called to act is told so once: the private line that wakes
// cupid, the seer, the werewolves, the little girl, the dying
// hunter or sheriff, or the sheriff breaking a tie says what the view then
// asks, in its words.
// Plain mode said both ("Choose a player to shoot, or lower your rifle."
// and "You are dying: shoot a player, or lower your rifle.").
func TestAnActorIsCalledInTheWordsTheViewAsks(t *testing.T) {
	calls := map[string]bool{"werewolf.cupid_choose": true, "werewolf.seer_choose": true, "werewolf.girl_may_peek": true,
		"werewolf.hunter_choose": true, "werewolf.successor_choose": true, "werewolf.tiebreak_choose": true,
		"werewolf.pack_is": true, "werewolf.pack_alone": true}
	seen := map[Phase]bool{}
	for seed := range uint64(24) {
		randomGame(t, namesN(10), ClassicOptions(), seed, func(s *State, evs []game.Event) {
			for _, e := range evs {
				if e.Audience.All || e.Msg.IsZero() || (!calls[e.Msg.Key] && !strings.HasPrefix(e.Msg.Key, "werewolf.prompt.")) {
					continue
				}
				for seat := range s.Players {
					if !e.Audience.Includes(game.Seat(seat)) || !s.Players[seat].Alive && !s.View(game.Seat(seat)).LastBreath {
						continue // a dead watcher is told, not asked
					}
					seen[s.Phase] = true
					if asked := s.View(game.Seat(seat)).Prompt; !e.Msg.Equal(asked) {
						t.Fatalf("seed %d, %v: seat %d is told %q, then asked %q", seed, s.Phase, seat, evText(e), evText(game.Event{Msg: asked}))
					}
				}
			}
		})
	}
	for _, p := range []Phase{PhaseCupid, PhaseSeer, PhaseWolves, PhaseHunterShot, PhaseSheriffSuccession, PhaseSheriffTiebreak} {
		if !seen[p] {
			t.Errorf("no game called an actor in %v", p)
		}
	}
}
