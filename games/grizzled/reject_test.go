package grizzled

import (
	"errors"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// TestApplyRejects: each illegal action returns the right error (with a
// readable message), no events, and leaves the state deep-equal to before.
func TestApplyRejects(t *testing.T) {
	turn := fixture{hands: map[int][]CardID{0: {tc(1), tc(2)}, 1: {tc(11)}}, nml: []CardID{tc(5)}, chars: map[int]int{0: 0}}
	withTokens := fixture{hands: map[int][]CardID{0: {tc(1)}, 1: {tc(11)}}, tokens: map[int]int{0: 1}}
	speechOpen := func(s *State) { do(t, s, 0, speech(Snow)) }
	failedBenefit := fixture{nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{0: {tc(3)}}, withdrawn: []int{1, 3},
		placed: map[int]Tile{1: TileL, 3: TileR}, knocks: map[int][]CardID{2: {Wounded, Mute}}, charmUsed: []int{2}, trials: []CardID{tc(5)}}
	failIt := func(s *State) { do(t, s, 0, play(tc(3))) }
	mcPending := fixture{hands: map[int][]CardID{0: {MerryChristmas, tc(1)}}, knocks: map[int][]CardID{3: {Wounded}, 1: {Mute}}}
	playMC := func(s *State) { do(t, s, 0, play(MerryChristmas)) }
	absent := fixture{knocks: map[int][]CardID{0: {AbsentMinded}}, tiles: map[int][]Tile{0: {TileL, TileR}}, hands: map[int][]CardID{1: {tc(1)}}}
	startWithdraw := func(s *State) { do(t, s, 0, withdraw) }
	tests := []struct {
		name  string
		f     fixture
		prep  func(*State)
		seat  game.Seat
		act   Action
		want  error
		words string
	}{
		{"play out of turn", turn, nil, 1, play(tc(11)), ErrNotYourTurn, "waiting for Anna"},
		{"spectator acts", turn, nil, game.Spectator, play(tc(1)), ErrNotYourTurn, "not playing"},
		{"seat out of range", turn, nil, 7, play(tc(1)), ErrNotYourTurn, ""},
		{"card not in hand", turn, nil, 0, play(tc(11)), ErrNoSuchCard, "you do not hold T11"},
		{"no card", turn, nil, 0, play(NoCard), ErrNoSuchCard, ""},
		{"card out of range", turn, nil, 0, play(200), ErrNoSuchCard, ""},
		{"unknown kind", turn, nil, 0, Action{Kind: 99}, ErrBadAction, ""},
		{"zero kind", turn, nil, 0, Action{}, ErrBadAction, ""},
		{"intensity during a turn", turn, nil, 0, intensity(3), ErrWrongPhase, "your turn"},
		{"speech without a token", turn, nil, 0, speech(Rain), ErrNoSpeechToken, "no speech token"},
		{"speech about no threat", withTokens, nil, 0, speech(9), ErrBadAction, ""},
		{"speech while Mute", fixture{hands: map[int][]CardID{0: {tc(1)}}, tokens: map[int]int{0: 1}, knocks: map[int][]CardID{0: {Mute}}}, nil, 0, speech(Rain), ErrMute, "Mute"},
		{"charm on a card not in NML", turn, nil, 0, charm(tc(31)), ErrNoSuchCard, "not in No Man's Land"},
		{"charm used", fixture{nml: []CardID{tc(5)}, chars: map[int]int{0: 0}, charmUsed: []int{0}, hands: map[int][]CardID{0: {tc(1)}}}, nil, 0, charm(tc(5)), ErrCharmUsed, ""},
		{"charm on the wrong threat", fixture{nml: []CardID{tc(14)}, chars: map[int]int{0: 0}, hands: map[int][]CardID{0: {tc(1)}}}, nil, 0, charm(tc(14)), ErrNoCharmTarget, "does not show Night"},
		{"Hardheaded withdraw", fixture{hands: map[int][]CardID{0: {tc(1), tc(2)}}, knocks: map[int][]CardID{0: {Hardheaded}}}, nil, 0, withdraw, ErrCannotWithdraw, "you may not withdraw: Hardheaded and you hold 2 cards"},
		{"Prideful withdraw", fixture{hands: map[int][]CardID{0: {tc(1)}}, knocks: map[int][]CardID{0: {Prideful}}}, nil, 0, withdraw, ErrCannotWithdraw, "Prideful and 3 other players are still in the mission"},
		{"Fragile withdraw", fixture{hands: map[int][]CardID{0: {tc(1)}}, knocks: map[int][]CardID{2: {Fragile}}}, nil, 0, withdraw, ErrCannotWithdraw, "Chloé is Fragile"},
		{"Fearful plays", fixture{nml: []CardID{tc(5), tc(6)}, hands: map[int][]CardID{0: {tc(11)}}, knocks: map[int][]CardID{0: {Fearful}}}, nil, 0, play(tc(11)), ErrForced, "must withdraw"},
		{"intensity too low", fixture{prep: true, round: 1}, nil, 0, intensity(2), ErrIntensityTooLow, "at least 3"},
		{"intensity negative", fixture{prep: true}, nil, 0, intensity(-5), ErrIntensityTooLow, "at least 1"},
		{"play during intensity", fixture{prep: true}, nil, 0, play(tc(1)), ErrWrongPhase, "intensity"},
		{"intensity by a non-leader", fixture{prep: true}, nil, 2, intensity(2), ErrNotYourTurn, ""},
		{"timeout by a player", withTokens, speechOpen, 1, Action{Kind: ActTimeout}, ErrNotAPlayerAction, ""},
		{"timeout outside a speech", turn, nil, game.System, Action{Kind: ActTimeout}, ErrWrongPhase, ""},
		{"system plays", turn, nil, game.System, play(tc(1)), ErrNotYourTurn, ""},
		{"speech answer by the speaker", withTokens, speechOpen, 0, pass, ErrNotYourTurn, "not asked"},
		{"speech answer not matching", withTokens, speechOpen, 1, answer(tc(1)), ErrNoSuchCard, ""},
		{"speech answer wrong threat", fixture{hands: map[int][]CardID{0: {tc(1)}, 1: {tc(11), tc(21)}}, tokens: map[int]int{0: 1}}, speechOpen, 1, answer(tc(21)), ErrNotMatching, "does not show Snow"},
		{"play during a speech", withTokens, speechOpen, 1, play(tc(11)), ErrWrongPhase, "answer the speech"},
		{"remove a tile not held", absent, startWithdraw, 0, removeT(TileDL), ErrNoSuchTile, "you do not hold a double left tile"},
		{"remove by another seat", absent, startWithdraw, 1, removeT(TileL), ErrNotYourTurn, ""},
		{"MC: not a hard knock", mcPending, playMC, 0, mcDiscard(tc(1), 3), ErrNoSuchHardKnock, ""},
		{"MC: wrong owner", mcPending, playMC, 0, mcDiscard(Wounded, 1), ErrNoSuchHardKnock, ""},
		{"MC: target out of range", mcPending, playMC, 0, mcDiscard(Wounded, 9), ErrNoSuchHardKnock, ""},
		{"MC: other action", mcPending, playMC, 0, play(tc(1)), ErrWrongPhase, "Merry Christmas"},
		{"benefit: 2 after failure", failedBenefit, failIt, 2, benefit(Wounded, Mute), ErrTooManyCards, "only 1"},
		{"benefit: none", failedBenefit, failIt, 2, benefit(), ErrTooManyCards, ""},
		{"benefit: charm after failure", failedBenefit, failIt, 2, restore, ErrNoCharmRestore, "not restored"},
		{"benefit: someone else's card", failedBenefit, failIt, 2, benefit(Tyrannical), ErrNoSuchHardKnock, ""},
		{"benefit: by another seat", failedBenefit, failIt, 1, decline, ErrNotYourTurn, ""},
		{"game over", fixture{}, func(s *State) { withdrawAll(t, s) }, 0, intensity(3), ErrGameOver, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := build(t, tt.f)
			if tt.prep != nil {
				tt.prep(s)
			}
			before, _ := EncodeState(s)
			err := refused(t, s, tt.seat, tt.act, tt.want) // error, no events, deep-equal state
			if !strings.Contains(i18n.For(i18n.English).Error(err), tt.words) {
				t.Fatalf("message %q does not say %q", err, tt.words)
			}
			if after, _ := EncodeState(s); string(after) != string(before) {
				t.Fatal("snapshot changed")
			}
		})
	}
}

func TestStaleSeq(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(1)}, 1: {tc(2)}}})
	seq := s.Seq()
	if s.CheckSeq(seq) != nil {
		t.Fatal("current seq refused")
	}
	do(t, s, 0, play(tc(1)))
	if err := s.CheckSeq(seq); !errors.Is(err, ErrStale) {
		t.Fatalf("old seq: %v", err)
	}
}

func TestNewRejectsBadSetups(t *testing.T) {
	for _, c := range []struct {
		names []string
		opts  string
	}{
		{[]string{"a"}, ""},
		{[]string{"a", "b", "c", "d", "e", "f"}, ""},
		{[]string{"a", "b"}, `{"variant":"expert"}`},
		{[]string{"a", "b"}, `{"leader":2}`},
		{[]string{"a", "b"}, `{"starting_trials":59}`},
		{[]string{"a", "b"}, `{`},
	} {
		if _, _, err := New(game.Setup{Game: "grizzled", Names: c.names, Options: []byte(c.opts)}, 1); err == nil {
			t.Errorf("%d names, options %s: accepted", len(c.names), c.opts)
		}
	}
	s, evs, err := New(game.Setup{Names: []string{"a", "b", "c"}, Options: []byte(`{"variant":"veteran","leader":-1}`)}, 5)
	if err != nil || len(s.trials) != 30 || len(s.morale) != 29 || len(evs) == 0 {
		t.Fatalf("veteran: %v", err)
	}
}
