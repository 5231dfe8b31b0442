package grizzled

import (
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// tc is threat card Tnn.
func tc(n int) CardID { return CardID(n) }

// Spec §9: one test per numbered engine test case. Unless a case says
// otherwise: 4 players in seats 0–3, seat 0 leads, traps are on.

func TestCase01_TraumaCounts(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(32), tc(33)}, knocks: map[int][]CardID{1: {TraumaRain}}})
	if got := s.Counts()[Rain]; got != 3 {
		t.Fatalf("count(Rain) = %d, want 3", got)
	}
	// Reaching 3 through play fails the mission at once (F-1, F-2).
	s = build(t, fixture{nml: []CardID{tc(32)}, knocks: map[int][]CardID{1: {TraumaRain}},
		hands: map[int][]CardID{0: {tc(33), tc(1)}}, trials: []CardID{tc(5), tc(6), tc(8)}})
	evs := do(t, s, 0, play(tc(33)))
	if !strings.Contains(eventsText(evs), "Three Rain threats: the mission fails!") {
		t.Fatalf("no failure narrated:\n%s", eventsText(evs))
	}
	if s.last == nil || s.last.Success || s.round != 3 {
		t.Fatalf("mission did not end as failed (round %d)", s.round)
	}
	if !trialsHas(s, tc(32), tc(33)) {
		t.Fatal("NML not shuffled back into the trials pile (E-2)")
	}
}

func TestCase02_WithdrawnTraumaDoesNotCount(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(32), tc(33)}, knocks: map[int][]CardID{1: {TraumaRain}},
		withdrawn: []int{1}, hands: map[int][]CardID{0: {tc(5)}}, trials: []CardID{tc(6), tc(8), tc(9)}})
	if got := s.Counts()[Rain]; got != 2 {
		t.Fatalf("count(Rain) = %d, want 2 (G-3)", got)
	}
	do(t, s, 0, play(tc(5)))
	if s.failed || s.phase != PhaseTurn {
		t.Fatal("the mission should continue")
	}
	withdrawAll(t, s)
	if s.phase != PhaseIntensity || s.round != 3 {
		t.Fatalf("expected the next mission, phase %d round %d", s.phase, s.round)
	}
	if got := s.Counts()[Rain]; got != 1 {
		t.Fatalf("next mission: count(Rain) = %d, want 1 (the Trauma counts again)", got)
	}
}

func TestCase03_WithdrawingLowersTheCount(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(32)}, knocks: map[int][]CardID{2: {TraumaRain}}, active: 2,
		withdrawn: []int{1}, hands: map[int][]CardID{0: {tc(33), tc(1)}}, trials: []CardID{tc(6)}})
	if got := s.Counts()[Rain]; got != 2 {
		t.Fatalf("count(Rain) = %d, want 2", got)
	}
	do(t, s, 2, withdraw)
	if got := s.Counts()[Rain]; got != 1 {
		t.Fatalf("after withdrawing count(Rain) = %d, want 1", got)
	}
	do(t, s, 3, withdraw)
	do(t, s, 0, play(tc(33)))
	if s.failed || s.Counts()[Rain] != 2 || s.phase != PhaseTurn || s.active != 0 {
		t.Fatalf("a third Rain card must not fail the mission (failed=%v count=%d)", s.failed, s.Counts()[Rain])
	}
}

func TestCase04_PlayingAPhobiaFails(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{0: {PhobiaShell, tc(5)}}, trials: []CardID{tc(6)}})
	do(t, s, 0, play(PhobiaShell))
	if s.last == nil || s.last.Success {
		t.Fatal("the mission should have failed")
	}
	if !s.players[0].owns(PhobiaShell) {
		t.Fatal("the Phobia stays in front of its owner (E-3)")
	}
}

func TestCase05_TrapChain(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(4), tc(1)}, 1: {tc(2)}}, trials: []CardID{tc(7), tc(12)}})
	evs := do(t, s, 0, play(tc(4)))
	if !slices.Equal(s.nml, []CardID{tc(4), tc(7)}) {
		t.Fatalf("NML = %v, want T04, T07", s.nml)
	}
	if !slices.Equal(s.trials, []CardID{tc(12)}) {
		t.Fatalf("a third card was drawn (T-2): trials %v", s.trials)
	}
	if !strings.Contains(eventsText(evs), "springs the trap and draws T07") {
		t.Fatalf("narration:\n%s", eventsText(evs))
	}
}

func TestCase06_TrapWithEmptyPile(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(13)}, 1: {tc(1)}}})
	do(t, s, 0, play(tc(13)))
	if !slices.Equal(s.nml, []CardID{tc(13)}) || len(s.trials) != 0 {
		t.Fatalf("NML %v trials %v", s.nml, s.trials)
	}
}

func TestCase07_BeginnerIgnoresTraps(t *testing.T) {
	s := build(t, fixture{beginner: true, hands: map[int][]CardID{0: {tc(23)}, 1: {tc(1)}}, trials: []CardID{tc(2)}})
	do(t, s, 0, play(tc(23)))
	if !slices.Equal(s.nml, []CardID{tc(23)}) || len(s.trials) != 1 {
		t.Fatalf("beginner trap drew a card: NML %v", s.nml)
	}
}

func TestCase08_TrapResolvesAfterFailure(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{0: {tc(4), tc(5)}},
		trials: []CardID{Wounded, tc(20)}, knocks: map[int][]CardID{1: {Mute}}, placed: map[int]Tile{3: TileDR}, withdrawn: []int{3}})
	// Seat 3's DR tile goes to seat 1, who has a hard knock: the game pauses
	// in PhaseBenefit, right after E-2 and before the morale drop.
	do(t, s, 0, play(tc(4)))
	if !s.players[0].owns(Wounded) {
		t.Fatal("the trap card drawn after failure must still be played (T-4)")
	}
	if s.phase != PhaseBenefit || s.last.Success {
		t.Fatalf("phase %d: the mission should have failed", s.phase)
	}
	if len(s.trials) != 4 || !trialsHas(s, tc(1), tc(2), tc(4), tc(20)) {
		t.Fatalf("trials pile %v: want T01, T02, T04 shuffled back with T20", s.trials)
	}
}

func TestCase09_TrapDrawsAHardKnock(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(10), tc(1)}, 1: {tc(2)}}, trials: []CardID{Fragile, tc(3)}})
	do(t, s, 0, play(tc(10)))
	if !s.players[0].owns(Fragile) {
		t.Fatal("Fragile should be in front of the active player")
	}
	// Takes effect at once: seat 1 holds a card and may not withdraw.
	if _, allowed, _ := s.TurnStatus(1); allowed {
		t.Fatal("Fragile did not take effect")
	}
	refused(t, s, 1, withdraw, ErrCannotWithdraw)
}

func TestCase10_LuckyCharm(t *testing.T) {
	s := build(t, fixture{chars: map[int]int{0: 0}, nml: []CardID{tc(5), tc(31)},
		hands: map[int][]CardID{0: {tc(1)}, 1: {tc(11)}, 2: {tc(24)}, 3: {tc(27)}}})
	if !hasLegal(s, 0, func(a Action) bool { return a.Kind == ActCharm && a.Card == tc(5) }) ||
		!hasLegal(s, 0, func(a Action) bool { return a.Kind == ActCharm && a.Card == tc(31) }) {
		t.Fatal("both Night cards should be charm targets")
	}
	do(t, s, 0, charm(tc(31)))
	if !slices.Equal(s.nml, []CardID{tc(5)}) || !s.players[0].CharmUsed || !slices.Contains(s.removed, tc(31)) {
		t.Fatalf("NML %v used=%v", s.nml, s.players[0].CharmUsed)
	}
	do(t, s, 1, play(tc(11)))
	do(t, s, 2, play(tc(24)))
	do(t, s, 3, play(tc(27)))
	if hasLegal(s, 0, kindIs(ActCharm)) {
		t.Fatal("A2 stays illegal until SU-5")
	}
	refused(t, s, 0, charm(tc(5)), ErrCharmUsed)
}

func TestCase11_CharmWithoutTarget(t *testing.T) {
	s := build(t, fixture{chars: map[int]int{0: 5}, nml: []CardID{tc(1)}, hands: map[int][]CardID{0: {tc(2)}}})
	if hasLegal(s, 0, kindIs(ActCharm)) {
		t.Fatal("Anselme (Gas Mask) has no target in NML {T01}")
	}
	refused(t, s, 0, charm(tc(1)), ErrNoCharmTarget)
}

func TestCase12_Speech(t *testing.T) {
	s := build(t, fixture{tokens: map[int]int{0: 1}, withdrawn: []int{2},
		hands: map[int][]CardID{0: {tc(14)}, 1: {tc(11), TraumaSnow}, 2: {tc(15)}, 3: {tc(1)}}})
	supply := s.supply
	do(t, s, 0, speech(Snow))
	// Seat 2 has withdrawn and is not asked. Seat 3 holds no Snow card: the
	// spec does not ask it, but the rulebooks ask everyone still in the
	// mission (and asking only holders would tell the table who holds
	// none), so it is asked and can only pass.
	if s.phase != PhaseSpeech || !slices.Equal(s.Waiting(), []game.Seat{1, 3}) {
		t.Fatalf("phase %d waiting %v: seats 1 and 3 are asked", s.phase, s.Waiting())
	}
	if l := s.Legal(3); len(l) != 1 || l[0].Kind != ActSpeechPass {
		t.Fatalf("seat 3 without a Snow card may only pass: %v", l)
	}
	do(t, s, 3, pass)
	evs := do(t, s, 1, answer(TraumaSnow))
	if !slices.Equal(s.players[1].Hand, []CardID{tc(11)}) || !slices.Contains(s.removed, TraumaSnow) {
		t.Fatalf("seat 1 hand %v", s.players[1].Hand)
	}
	if !slices.Equal(s.players[0].Hand, []CardID{tc(14)}) {
		t.Fatal("the speaker discards nothing")
	}
	if s.players[0].Tokens != 0 || s.supply != supply {
		t.Fatalf("token: held %d supply %d (was %d): it leaves the game", s.players[0].Tokens, s.supply, supply)
	}
	if s.phase != PhaseTurn || s.active != 1 {
		t.Fatal("the turn passes after the speech")
	}
	if !strings.Contains(eventsText(evs), "Ben discards H05 Trauma (Snow).") {
		t.Fatalf("narration:\n%s", eventsText(evs))
	}
}

func TestCase13_SpeechWithSeveralMatches(t *testing.T) {
	s := build(t, fixture{tokens: map[int]int{0: 1}, hands: map[int][]CardID{0: {tc(1)}, 1: {tc(14), tc(37), tc(2)}}})
	do(t, s, 0, speech(Snow))
	got := s.Legal(1)
	want := []Action{answer(tc(14)), answer(tc(37)), pass}
	if len(got) != len(want) {
		t.Fatalf("legal = %v", got)
	}
	for i := range want {
		if got[i].Kind != want[i].Kind || got[i].Card != want[i].Card {
			t.Fatalf("legal = %v, want %v", got, want)
		}
	}
	refused(t, s, 1, answer(tc(2)), ErrNotMatching)
	do(t, s, 2, pass) // asked too, with an empty hand
	do(t, s, 3, pass)
	do(t, s, 1, answer(tc(37)))
	if !slices.Equal(s.players[1].Hand, []CardID{tc(14), tc(2)}) {
		t.Fatalf("exactly one card is discarded: hand %v", s.players[1].Hand)
	}
}

func TestCase14_Mute(t *testing.T) {
	s := build(t, fixture{tokens: map[int]int{0: 1}, knocks: map[int][]CardID{0: {Mute}},
		hands: map[int][]CardID{0: {tc(1)}, 1: {tc(2)}}, tiles: map[int][]Tile{0: {TileL}}})
	if hasLegal(s, 0, kindIs(ActSpeech)) {
		t.Fatal("A3 is illegal for a Mute owner")
	}
	refused(t, s, 0, speech(Night), ErrMute)
	if _, err := s.Say(0, "hello"); err == nil {
		t.Fatal("chat must be disabled while Mute is in front")
	}
	if !hasLegal(s, 0, kindIs(ActWithdraw)) {
		t.Fatal("A4 is legal")
	}
	do(t, s, 0, withdraw)
	if s.players[0].Placed != TileL || !s.players[0].Withdrawn {
		t.Fatal("a tile is placed")
	}
	if _, err := s.Say(0, "hello"); err == nil {
		t.Fatal("Mute still forbids chat after withdrawing (§8 item 9)")
	}
	if evs, err := s.Say(1, "hello"); err != nil || len(evs) != 1 || evs[0].Channel != "table" || !evs[0].Audience.All {
		t.Fatalf("chat of seat 1: %v %v", evs, err)
	}
}

func TestCase15_WithdrawWithoutTiles(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(1)}, 1: {tc(2)}}})
	do(t, s, 0, withdraw)
	if !s.players[0].Withdrawn || s.players[0].Placed != NoTile || s.active != 1 {
		t.Fatal("withdrawal without tiles")
	}
}

func TestCase16_SupportTie(t *testing.T) {
	s := build(t, fixture{tiles: map[int][]Tile{0: {TileL}, 1: {TileDL}, 2: {TileL}, 3: {TileDR}},
		trials: []CardID{tc(1), tc(2), tc(3), tc(4), tc(5)}})
	withdrawAll(t, s)
	if s.last == nil || s.last.Beneficiary != -1 {
		t.Fatalf("tie 2–2: nobody benefits, got %+v", s.last)
	}
	if !slices.Equal(s.players[1].Tiles, []Tile{TileL, TileDR}) || !slices.Equal(s.players[3].Tiles, []Tile{TileDL, TileL}) {
		t.Fatalf("tiles moved: seat 1 %v seat 3 %v", s.players[1].Tiles, s.players[3].Tiles)
	}
}

func TestCase17_SupportAfterSuccess(t *testing.T) {
	f := fixture{tiles: map[int][]Tile{0: {TileDL}, 1: {TileL}, 2: {TileL}, 3: {TileR}},
		knocks: map[int][]CardID{2: {Wounded, Mute, Tyrannical}}, charmUsed: []int{2}, trials: []CardID{tc(1)}}
	s := build(t, f)
	withdrawAll(t, s)
	if s.phase != PhaseBenefit || s.beneficiary != 2 || !s.last.Success {
		t.Fatalf("phase %d beneficiary %d", s.phase, s.beneficiary)
	}
	for _, a := range s.Legal(2) {
		if a.Kind == ActBenefitDiscard && len(a.Cards) > 2 {
			t.Fatal("at most 2 cards")
		}
	}
	if !hasLegal(s, 2, kindIs(ActBenefitCharm)) || !hasLegal(s, 2, func(a Action) bool { return len(a.Cards) == 2 }) {
		t.Fatal("both benefits should be offered")
	}
	refused(t, s, 2, benefit(Wounded, Mute, Tyrannical), ErrTooManyCards)
	s2 := s.Clone()
	do(t, s, 2, benefit(Wounded, Mute))
	if !slices.Equal(s.players[2].Knocks, []CardID{Tyrannical}) || !s.players[2].CharmUsed {
		t.Fatal("discarding 2 does not restore the charm")
	}
	do(t, s2, 2, restore)
	if s2.players[2].CharmUsed || len(s2.players[2].Knocks) != 3 {
		t.Fatal("restoring the charm discards nothing")
	}
}

func TestCase18_SupportAfterFailure(t *testing.T) {
	f := fixture{nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{0: {tc(3)}}, withdrawn: []int{1, 3},
		placed: map[int]Tile{1: TileL, 3: TileL}, knocks: map[int][]CardID{2: {Wounded, Mute}}, charmUsed: []int{2},
		trials: []CardID{tc(5)}}
	s := build(t, f)
	do(t, s, 0, play(tc(3)))
	if s.last == nil || s.last.Success || s.last.Beneficiary != -1 {
		t.Fatalf("1–1 tie after failure: %+v", s.last)
	}
	// Variant: both tiles point to seat 2.
	f.placed = map[int]Tile{1: TileL, 3: TileR}
	s = build(t, f)
	do(t, s, 0, play(tc(3)))
	if s.phase != PhaseBenefit || s.beneficiary != 2 {
		t.Fatal("seat 2 should benefit")
	}
	if hasLegal(s, 2, kindIs(ActBenefitCharm)) || hasLegal(s, 2, func(a Action) bool { return len(a.Cards) > 1 }) {
		t.Fatal("after failure: 1 hard knock only, no charm (SU-6)")
	}
	refused(t, s, 2, benefit(Wounded, Mute), ErrTooManyCards)
	refused(t, s, 2, restore, ErrNoCharmRestore)
	do(t, s, 2, benefit(Wounded))
	if !slices.Equal(s.players[2].Knocks, []CardID{Mute}) {
		t.Fatal("Wounded discarded")
	}
}

func TestCase19_TileDirectionsWithFivePlayers(t *testing.T) {
	s := build(t, fixture{humans: 5})
	for _, c := range []struct {
		tile Tile
		to   int
	}{{TileDL, 2}, {TileR, 4}, {TileDR, 3}, {TileL, 1}} {
		if got := s.recipient(0, c.tile); got != c.to {
			t.Errorf("%s from seat 0 goes to %d, want %d", c.tile, got, c.to)
		}
	}
}

func TestCase20_TilesAreKept(t *testing.T) {
	s := build(t, fixture{tiles: map[int][]Tile{1: {TileL}}, trials: []CardID{tc(1), tc(2), tc(3), tc(5), tc(6), tc(8), tc(9), tc(11)}})
	withdrawAll(t, s)
	if !slices.Equal(s.players[2].Tiles, []Tile{TileL}) || len(s.players[1].Tiles) != 0 {
		t.Fatal("seat 2 should now hold the L tile")
	}
	do(t, s, s.leader, intensity(1))
	withdrawAll(t, s)
	if !slices.Contains(s.last.Tiles, SupportTile{From: 2, To: 3, Tile: TileL}) {
		t.Fatalf("seat 2's L goes to seat 3: %+v", s.last.Tiles)
	}
}

func TestCase21_LossWithWounded(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{1: {Wounded, Mute, Fragile}}, trials: []CardID{tc(1)}})
	withdrawAll(t, s)
	won, over := s.Over()
	if !over || won || s.loss != "hard knocks" {
		t.Fatalf("weight 4 loses (L-1): over=%v won=%v %q", over, won, s.loss)
	}
	if r, ok := s.Result(); !ok || r.Outcome != "loss" {
		t.Fatal("result")
	}
}

func TestCase22_SupportSavesAPlayer(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{2: {Wounded, Fragile, Mute, Clumsy}},
		tiles: map[int][]Tile{0: {TileDL}, 1: {TileL}}, trials: []CardID{tc(31), tc(2), tc(3), tc(5)}})
	if s.players[2].weight() != 5 {
		t.Fatal("weight 5")
	}
	withdrawAll(t, s)
	do(t, s, 2, benefit(Wounded, Fragile))
	if _, over := s.Over(); over || s.players[2].weight() != 2 {
		t.Fatalf("game should continue with weight 2, got %d", s.players[2].weight())
	}
}

func TestCase23_MoraleDropAmounts(t *testing.T) {
	for _, c := range []struct {
		name        string
		hand        int
		demoralized bool
		want        int
	}{{"1 card", 1, false, 3}, {"5 cards", 5, false, 5}, {"Demoralized, 1 card", 1, true, 4}, {"Demoralized, 5 cards", 5, true, 6}} {
		t.Run(c.name, func(t *testing.T) {
			five := []CardID{tc(1), tc(2), tc(3), tc(4), tc(5)}
			f := fixture{hands: map[int][]CardID{1: five[:c.hand]}, trials: []CardID{tc(6)}}
			if c.demoralized {
				f.knocks = map[int][]CardID{3: {Demoralized}}
			}
			s := build(t, f)
			before := len(s.morale)
			withdrawAll(t, s)
			if got := before - len(s.morale); got != c.want {
				t.Fatalf("moved %d, want %d", got, c.want)
			}
		})
	}
}

func TestCase24_MonumentRevealed(t *testing.T) {
	for _, reserve := range []int{3, 2} {
		s := build(t, fixture{morale: reserve, trials: []CardID{tc(6)}})
		withdrawAll(t, s)
		won, over := s.Over()
		if !over || won || s.loss != "morale" || len(s.morale) != 0 || len(s.trials) != 1+reserve {
			t.Fatalf("reserve %d: over=%v won=%v loss=%q trials=%d", reserve, over, won, s.loss, len(s.trials))
		}
	}
}

func TestCase25_Victory(t *testing.T) {
	s := build(t, fixture{})
	morale := len(s.morale)
	withdrawAll(t, s)
	won, over := s.Over()
	if !over || !won || len(s.morale) != morale {
		t.Fatalf("over=%v won=%v morale moved %d", over, won, morale-len(s.morale))
	}
	if r, ok := s.Result(); !ok || r.Outcome != "win" || len(r.Winners) != 4 {
		t.Fatalf("result %+v", r)
	}
}

func TestCase26_NoVictoryWithCardsLeft(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{2: {MerryChristmas}}})
	morale := len(s.morale)
	withdrawAll(t, s)
	if _, over := s.Over(); over || morale-len(s.morale) != 3 || s.phase != PhaseIntensity {
		t.Fatalf("over=%v moved %d", over, morale-len(s.morale))
	}
}

func TestCase27_LossBeatsVictory(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{0: {Wounded, Mute, Panicked}}})
	withdrawAll(t, s)
	if won, over := s.Over(); !over || won || s.loss != "hard knocks" {
		t.Fatal("L-1 is checked before W-1")
	}
}

func TestCase28_IntensityLimits(t *testing.T) {
	s := build(t, fixture{round: 1, prep: true, trials: []CardID{tc(1), tc(2), tc(3), tc(4), tc(5), tc(6), tc(7), tc(8), tc(9), tc(10), tc(11), tc(12)}})
	refused(t, s, 0, intensity(2), ErrIntensityTooLow)
	refused(t, s, 1, intensity(3), ErrNotYourTurn)
	do(t, s, 0, intensity(3))
	s = build(t, fixture{round: 2, prep: true, trials: []CardID{tc(1)}})
	refused(t, s, 0, intensity(0), ErrIntensityTooLow)
	do(t, s, 0, intensity(1))
}

func TestCase29_PileRunsOutWhileDealing(t *testing.T) {
	var ten []CardID
	for i := 1; i <= 10; i++ {
		ten = append(ten, tc(i))
	}
	s := build(t, fixture{prep: true, trials: ten})
	do(t, s, 0, intensity(3))
	got := []int{len(s.players[0].Hand), len(s.players[1].Hand), len(s.players[2].Hand), len(s.players[3].Hand)}
	if !slices.Equal(got, []int{3, 3, 2, 2}) || len(s.trials) != 0 {
		t.Fatalf("hands %v, pile %d", got, len(s.trials))
	}
	// One card at a time, clockwise from the leader (P3): the top card goes to the leader.
	if s.players[0].Hand[0] != tc(1) || s.players[1].Hand[0] != tc(2) {
		t.Fatalf("deal order: %v %v", s.players[0].Hand, s.players[1].Hand)
	}
}

func TestCase30_Frenzied(t *testing.T) {
	for _, c := range []struct{ pile, want int }{{6, 3}, {5, 2}, {4, 1}} {
		var pile []CardID
		for i := 1; i <= c.pile; i++ {
			pile = append(pile, tc(i))
		}
		s := build(t, fixture{prep: true, knocks: map[int][]CardID{1: {Frenzied}}, trials: pile})
		do(t, s, 0, intensity(1))
		if got := len(s.players[1].Hand); got != c.want {
			t.Errorf("pile %d: Frenzied owner holds %d, want %d", c.pile, got, c.want)
		}
	}
}

func TestCase31_Hardheaded(t *testing.T) {
	for _, c := range []struct {
		hand []CardID
		ok   bool
	}{{[]CardID{tc(1), tc(2)}, false}, {[]CardID{tc(1)}, true}, {nil, true}} {
		s := build(t, fixture{knocks: map[int][]CardID{0: {Hardheaded}}, hands: map[int][]CardID{0: c.hand}})
		if _, allowed, _ := s.TurnStatus(0); allowed != c.ok {
			t.Errorf("hand %d: allowed=%v", len(c.hand), allowed)
		}
		if !c.ok {
			refused(t, s, 0, withdraw, ErrCannotWithdraw)
		}
	}
}

func TestCase32_Prideful(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{0: {Prideful}}, hands: map[int][]CardID{0: {tc(1)}}, withdrawn: []int{1, 2}})
	refused(t, s, 0, withdraw, ErrCannotWithdraw)
	do(t, s, 0, play(tc(1)))
	s = build(t, fixture{knocks: map[int][]CardID{0: {Prideful}}, hands: map[int][]CardID{0: {tc(1)}}, withdrawn: []int{1, 2, 3}})
	do(t, s, 0, withdraw)
}

func TestCase33_Fragile(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{1: {Fragile}}, hands: map[int][]CardID{1: {tc(1)}, 2: {tc(2)}, 0: {tc(3)}}, active: 2})
	refused(t, s, 2, withdraw, ErrCannotWithdraw)
	if _, allowed, _ := s.TurnStatus(3); !allowed {
		t.Fatal("seat 3 with 0 cards can withdraw")
	}
	s = build(t, fixture{knocks: map[int][]CardID{1: {Fragile}}, hands: map[int][]CardID{1: {tc(1)}, 2: {tc(2)}}, active: 1})
	do(t, s, 1, withdraw)
	do(t, s, 2, withdraw)
}

func TestCase34_FearfulForcesWithdrawal(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(5), tc(6)}, knocks: map[int][]CardID{0: {Fearful}}, tokens: map[int]int{0: 1},
		hands: map[int][]CardID{0: {tc(11), tc(12)}}})
	if l := s.Legal(0); len(l) != 1 || l[0].Kind != ActWithdraw {
		t.Fatalf("legal = %v, want only withdraw", l)
	}
	refused(t, s, 0, play(tc(11)), ErrForced)
	s = build(t, fixture{nml: []CardID{tc(5)}, knocks: map[int][]CardID{0: {Fearful}}, hands: map[int][]CardID{0: {tc(11), tc(12)}}})
	if !hasLegal(s, 0, kindIs(ActPlay)) {
		t.Fatal("with max count 1 the owner acts freely")
	}
}

func TestCase35_FearfulAgainstHardheaded(t *testing.T) {
	f := fixture{nml: []CardID{tc(5), tc(6)}, knocks: map[int][]CardID{0: {Hardheaded, Fearful}}, tokens: map[int]int{0: 1},
		hands: map[int][]CardID{0: {tc(11), tc(12), tc(13)}}, chars: map[int]int{0: 0}}
	s := build(t, f)
	for _, k := range []ActionKind{ActPlay, ActCharm, ActSpeech} {
		if !hasLegal(s, 0, kindIs(k)) {
			t.Fatalf("Hardheaded first: action %d should be legal", k)
		}
	}
	if hasLegal(s, 0, kindIs(ActWithdraw)) {
		t.Fatal("Hardheaded first: may not withdraw")
	}
	refused(t, s, 0, withdraw, ErrCannotWithdraw)
	f.knocks = map[int][]CardID{0: {Fearful, Hardheaded}}
	s = build(t, f)
	if l := s.Legal(0); len(l) != 1 || l[0].Kind != ActWithdraw {
		t.Fatalf("Fearful first: legal = %v", l)
	}
	do(t, s, 0, withdraw)
}

func TestCase36_FearfulAgainstFragile(t *testing.T) {
	s := build(t, fixture{nml: []CardID{tc(5), tc(6)}, knocks: map[int][]CardID{0: {Fearful}, 1: {Fragile}},
		hands: map[int][]CardID{0: {tc(11), tc(12)}, 1: {tc(1)}}})
	if l := s.Legal(0); len(l) != 1 || l[0].Kind != ActWithdraw {
		t.Fatalf("legal = %v, want only withdraw (G-6: the active player's card wins)", l)
	}
	do(t, s, 0, withdraw)
}

func TestCase37_Panicked(t *testing.T) {
	f := fixture{knocks: map[int][]CardID{0: {Panicked}}, tiles: map[int][]Tile{0: {TileL, TileR, TileDL}}, hands: map[int][]CardID{1: {tc(1)}}}
	s := build(t, f)
	r := s.Clone()
	do(t, s, 0, withdraw)
	if s.phase != PhaseTurn || s.players[0].Placed == NoTile || !s.players[0].Hidden {
		t.Fatal("Panicked places at random without asking")
	}
	if v := s.View(0); v.PlacedTile != NoTile {
		t.Fatal("the Panicked tile stays hidden")
	}
	do(t, r, 0, withdraw)
	if r.players[0].Placed != s.players[0].Placed {
		t.Fatal("the same seed gives the same tile")
	}
	// Different seeds pick different tiles at least sometimes.
	seen := map[Tile]bool{}
	for seed := range uint64(30) {
		f.seed = seed
		s := build(t, f)
		do(t, s, 0, withdraw)
		seen[s.players[0].Placed] = true
	}
	if len(seen) < 2 {
		t.Fatalf("tiles picked over 30 seeds: %v", seen)
	}
}

func TestCase38_AbsentMinded(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{0: {AbsentMinded}}, tiles: map[int][]Tile{0: {TileL, TileR}}, hands: map[int][]CardID{1: {tc(1)}}})
	box := len(s.box)
	do(t, s, 0, withdraw)
	if s.phase != PhaseDecision || s.decision != DecideRemoveTile {
		t.Fatal("the owner first removes a tile")
	}
	refused(t, s, 0, place(TileL), ErrWrongPhase)
	do(t, s, 0, removeT(TileL))
	if s.players[0].Placed != TileR || len(s.box) != box+1 || s.phase != PhaseTurn {
		t.Fatalf("placed %s, box %d", s.players[0].Placed, len(s.box))
	}
	s = build(t, fixture{knocks: map[int][]CardID{0: {AbsentMinded}}, tiles: map[int][]Tile{0: {TileR}}, hands: map[int][]CardID{1: {tc(1)}}})
	do(t, s, 0, withdraw)
	if s.players[0].Placed != NoTile || len(s.players[0].Tiles) != 0 || !s.players[0].Withdrawn {
		t.Fatal("a single tile is removed and no support is given")
	}
}

func TestCase39_Selfish(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{0: {Selfish}}, tiles: map[int][]Tile{0: {TileR}}, trials: []CardID{tc(1)}})
	withdrawAll(t, s)
	if !slices.Equal(s.last.Tiles, []SupportTile{{From: 0, To: 0, Tile: TileR}}) || s.last.Beneficiary != 0 {
		t.Fatalf("support %+v", s.last)
	}
	if !slices.Equal(s.players[0].Tiles, []Tile{TileR}) || s.phase != PhaseBenefit {
		t.Fatal("the tile comes back and the owner benefits")
	}
}

func TestCase40_Clumsy(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{0: {Clumsy}}, trials: []CardID{tc(20), tc(1)}, hands: map[int][]CardID{1: {tc(2)}}})
	do(t, s, 0, withdraw)
	if !slices.Equal(s.nml, []CardID{tc(20)}) || !slices.Equal(s.trials, []CardID{tc(1)}) {
		t.Fatalf("NML %v trials %v: the drawn trap is ignored", s.nml, s.trials)
	}
	s = build(t, fixture{knocks: map[int][]CardID{0: {Clumsy}}, trials: []CardID{TraumaSnow}, nml: []CardID{tc(11), tc(12)}, hands: map[int][]CardID{1: {tc(2)}}})
	do(t, s, 0, withdraw)
	if !s.players[0].owns(TraumaSnow) || s.Counts()[Snow] != 2 || s.failed {
		t.Fatal("the Trauma goes in front of the withdrawn owner and does not count")
	}
}

func TestCase41_ClumsyLastWithdrawal(t *testing.T) {
	s := build(t, fixture{knocks: map[int][]CardID{3: {Clumsy}}, active: 3, withdrawn: []int{0, 1, 2},
		nml: []CardID{tc(11), tc(12)}, trials: []CardID{tc(15)}})
	do(t, s, 3, withdraw)
	if s.last == nil || s.last.Success {
		t.Fatal("the mission fails (§8 item 6)")
	}
	if !trialsHas(s, tc(11), tc(12), tc(15)) {
		t.Fatal("NML shuffled back")
	}
}

func TestCase42_Tyrannical(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(1)}, 2: {Tyrannical}}, active: 2, trials: []CardID{tc(2), tc(3), tc(4), tc(5), tc(6)}})
	do(t, s, 2, play(Tyrannical))
	if s.leader != 2 || s.active != 3 {
		t.Fatalf("leader %d active %d", s.leader, s.active)
	}
	tokens, supply := s.players[2].Tokens, s.supply
	withdrawAll(t, s)
	if s.leader != 2 || s.players[2].Tokens != tokens || s.supply != supply {
		t.Fatal("LC-1: seat 2 stays leader and nobody gets a token")
	}
	// Support removes Tyrannical: seat 2 receives two tiles and discards it.
	s = build(t, fixture{knocks: map[int][]CardID{2: {Tyrannical}}, leader: 2, tiles: map[int][]Tile{0: {TileDL}, 1: {TileL}},
		trials: []CardID{tc(2)}})
	withdrawAll(t, s)
	do(t, s, 2, benefit(Tyrannical))
	if s.leader != 3 || s.players[2].Tokens != 1 {
		t.Fatalf("LC-2 after removal: leader %d, seat 2 tokens %d", s.leader, s.players[2].Tokens)
	}
}

func TestCase43_LeaderChangeWithEmptySupply(t *testing.T) {
	s := build(t, fixture{noSupply: true, trials: []CardID{tc(2)}})
	withdrawAll(t, s)
	if s.leader != 1 || s.players[0].Tokens != 0 || s.supply != 0 {
		t.Fatal("leader passes left, nobody gets a token")
	}
	s = build(t, fixture{noSupply: true, nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{0: {tc(3)}}})
	do(t, s, 0, play(tc(3)))
	if s.round != 3 || s.leader != 1 || s.players[0].Tokens != 0 {
		t.Fatal("also after a failed mission")
	}
}

func TestCase44_MerryChristmas(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {MerryChristmas, tc(1)}}, knocks: map[int][]CardID{3: {Wounded}, 1: {Mute}}, withdrawn: []int{3}})
	do(t, s, 0, play(MerryChristmas))
	if s.phase != PhaseDecision || s.decision != DecideHardKnock || s.decider != 0 {
		t.Fatal("MC asks for a hard knock")
	}
	refused(t, s, 0, mcDiscard(Wounded, 1), ErrNoSuchHardKnock)
	do(t, s, 0, mcDiscard(Wounded, 3))
	if s.players[3].owns(Wounded) || !slices.Contains(s.removed, MerryChristmas) || !slices.Contains(s.removed, Wounded) || s.active != 1 {
		t.Fatal("Wounded and MC leave the game")
	}
	s = build(t, fixture{hands: map[int][]CardID{0: {MerryChristmas, tc(1)}}})
	do(t, s, 0, play(MerryChristmas))
	if s.phase != PhaseTurn || !slices.Contains(s.removed, MerryChristmas) {
		t.Fatal("with no hard knock in play MC just leaves the game")
	}
}

func TestCase45_MerryChristmasDrawnByATrap(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(26), tc(1)}}, knocks: map[int][]CardID{1: {Wounded}, 2: {Mute}}, trials: []CardID{MerryChristmas}})
	do(t, s, 0, play(tc(26)))
	if s.phase != PhaseDecision || s.decider != 0 {
		t.Fatal("the active player picks a hard knock")
	}
	do(t, s, 0, mcDiscard(Mute, 2))
	if s.players[2].owns(Mute) || s.active != 1 {
		t.Fatal("Mute discarded, turn passes")
	}
}

func TestCase46_EndOfMission(t *testing.T) {
	// Success: the pause in PhaseBenefit shows the state before the morale drop.
	s := build(t, fixture{nml: []CardID{tc(1), tc(5)}, knocks: map[int][]CardID{1: {Mute}}, tiles: map[int][]Tile{0: {TileL}}, trials: []CardID{tc(2), tc(3)}})
	withdrawAll(t, s)
	if s.phase != PhaseBenefit || len(s.nml) != 0 || len(s.trials) != 2 || !slices.Contains(s.removed, tc(5)) {
		t.Fatalf("success: NML %v trials %d", s.nml, len(s.trials))
	}
	s = build(t, fixture{nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{0: {tc(3)}}, knocks: map[int][]CardID{1: {Mute}},
		placed: map[int]Tile{2: TileR}, withdrawn: []int{2}, trials: []CardID{tc(5), tc(6)}})
	do(t, s, 0, play(tc(3)))
	if s.phase != PhaseBenefit || len(s.trials) != 2+3 {
		t.Fatalf("failure: trials %d, want 5", len(s.trials))
	}
}

func TestCase47_TwoPlayerChaplain(t *testing.T) {
	s := newTestGame(t, 2, Options{Variant: Standard, Leader: 0}, 9)
	if len(s.players) != 3 || !s.players[2].Chaplain || len(s.trials) != 20 || len(s.morale) != 39 || s.supply != 5 {
		t.Fatalf("setup: seats %d trials %d morale %d supply %d", len(s.players), len(s.trials), len(s.morale), s.supply)
	}
	for i := range s.players {
		for _, tl := range s.players[i].Tiles {
			if tl == TileDL || tl == TileDR {
				t.Fatal("no double tiles with 2 players")
			}
		}
	}
	do(t, s, 0, intensity(3))
	if s.players[2].Placed == NoTile || !s.players[2].Hidden || len(s.players[2].Tiles) != 2 {
		t.Fatal("the chaplain places a random tile in Preparation (P5)")
	}
	// The chaplain receives 2 tiles, the humans 1 and 0: nobody benefits.
	s = build(t, fixture{humans: 2, tiles: map[int][]Tile{0: {TileR}, 1: {TileL}}, placed: map[int]Tile{2: TileL}, // chaplain's L → seat 0
		trials: []CardID{tc(1)}, tokens: map[int]int{0: 1}, hands: map[int][]CardID{1: {tc(14)}, 0: {tc(2)}}})
	supply := s.supply
	do(t, s, 0, speech(Snow))
	do(t, s, 1, pass)
	if s.supply != supply+1 {
		t.Fatal("a used token returns to the supply (§6.4)")
	}
	// seat 0 R → seat 2 (chaplain), seat 1 L → seat 2: chaplain 2, seat 0 1.
	withdrawAll(t, s)
	if s.last.Beneficiary != 2 || s.phase != PhaseIntensity || len(s.players[2].Tiles) != 2 {
		t.Fatalf("chaplain benefit: %+v phase %d", s.last, s.phase)
	}
}

func TestCase48_ChaplainIsNeverDealtTo(t *testing.T) {
	s := newTestGame(t, 2, Options{Variant: Standard, Leader: 0}, 3)
	do(t, s, 0, intensity(3))
	if len(s.players[0].Hand) != 3 || len(s.players[1].Hand) != 3 || len(s.players[2].Hand) != 0 {
		t.Fatal("deal skips the chaplain")
	}
	leaders := []int{s.leader}
	for range 3 {
		for s.phase != PhaseIntensity {
			w := s.Waiting()[0]
			do(t, s, int(w), s.Legal(w)[len(s.Legal(w))-1])
			if _, over := s.Over(); over {
				t.Skip("game ended early")
			}
		}
		leaders = append(leaders, s.leader)
		do(t, s, s.leader, intensity(1))
	}
	if !slices.Equal(leaders, []int{0, 1, 0, 1}) {
		t.Fatalf("leaders %v", leaders)
	}
}

func TestCase49_Campaign(t *testing.T) {
	if CampaignStart(2) != 20 || CampaignStart(4) != 25 {
		t.Fatal("start")
	}
	n, vet := CampaignNext(20, true)
	if n != 22 || vet {
		t.Fatal("win at 20")
	}
	if n, vet = CampaignNext(22, false); n != 22 || vet {
		t.Fatal("loss keeps N")
	}
	if n, vet = CampaignNext(30, true); n != 30 || !vet {
		t.Fatal("win at 30 makes veterans")
	}
	if n, _ = CampaignNext(29, true); n != 30 {
		t.Fatal("capped at 30")
	}
	s, _, err := NewGame(testNames[:2], Options{Variant: Standard, StartingTrials: 22, Leader: 0}, 1)
	if err != nil || len(s.trials) != 22 || len(s.morale) != 37 {
		t.Fatal("campaign N")
	}
}

// Frenzied at a mission whose deal emptied the pile draws nothing, and the
// log says so instead of "draws 0 more cards" (issue 30 item 8).
func TestFrenziedWithAnEmptyPileSaysSo(t *testing.T) {
	s := build(t, fixture{prep: true, knocks: map[int][]CardID{1: {Frenzied}}, trials: []CardID{tc(1), tc(2), tc(3), tc(4)}})
	evs := do(t, s, 0, intensity(1))
	var keys []string
	for _, e := range evs {
		keys = append(keys, e.Msg.Key)
		if e.Msg.Key == "grizzled.frenzied_draws" {
			t.Fatalf("the log says the Frenzied soldier draws: %+v", e.Msg)
		}
	}
	if !slices.Contains(keys, "grizzled.frenzied_empty") {
		t.Fatalf("the log does not say the pile was empty: %v", keys)
	}
}
