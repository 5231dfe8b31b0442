package werewolf

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// The numbered scenarios of spec §16.

func TestScenario01_StarterDealsTheTable(t *testing.T) {
	table := map[int][3]int{8: {2, 1, 5}, 9: {2, 1, 6}, 10: {2, 1, 7}, 11: {2, 1, 8}, 12: {3, 1, 8},
		13: {3, 1, 9}, 14: {3, 1, 10}, 15: {3, 1, 11}, 16: {3, 1, 12}, 17: {3, 1, 13}, 18: {4, 1, 13}}
	for n := 8; n <= 18; n++ {
		s, _, err := NewState(namesN(n), DefaultOptions(), uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		var got [3]int
		for _, p := range s.Players {
			switch p.Card {
			case RoleWerewolf:
				got[0]++
			case RoleSeer:
				got[1]++
			case RoleVillager:
				got[2]++
			default:
				t.Fatalf("n=%d: unexpected card %v", n, p.Card)
			}
		}
		if got != table[n] || len(s.Middle) != 0 || len(s.Players) != n {
			t.Fatalf("n=%d: got %v middle %v, want %v", n, got, s.Middle, table[n])
		}
		for i := range n {
			v := s.View(game.Seat(i))
			if v.Card != s.Players[i].Card {
				t.Fatalf("seat %d does not see its card", i)
			}
			for j, p := range v.Players {
				if j != i && p.Card != RoleUnknown {
					t.Fatalf("seat %d sees seat %d's card", i, j)
				}
			}
		}
	}
}

func TestScenario02_ClassicEightDealsTenCards(t *testing.T) {
	s, _, err := NewState(namesN(8), ClassicOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []Role{RoleWerewolf, RoleWerewolf, RoleSeer, RoleWitch, RoleHunter, RoleCupid, RoleLittleGirl, RoleThief, RoleVillager, RoleVillager}
	if !slices.Equal(s.Deck, want) {
		t.Fatalf("deck %v", s.Deck)
	}
	all := []Role{}
	for _, p := range s.Players {
		all = append(all, p.Card)
	}
	all = append(all, s.Middle...)
	slices.Sort(all)
	w := slices.Clone(want)
	slices.Sort(w)
	if len(s.Players) != 8 || len(s.Middle) != 2 || !slices.Equal(all, w) {
		t.Fatalf("dealt %v + middle %v", all, s.Middle)
	}
	if v := s.View(game.Spectator); len(v.Deck) != 10 || v.Middle != nil {
		t.Fatalf("public deck %v, middle %v", v.Deck, v.Middle)
	}
}

func TestScenario03_Validation(t *testing.T) {
	o := DefaultOptions()
	o.Preset, o.Wolves, o.Thief = PresetCustom, 1, true
	if err := o.Validate(8); !errors.Is(err, ErrBadOptions) {
		t.Fatalf("thief with one wolf: %v", err)
	}
	o.Thief, o.Wolves = false, 5
	if err := o.Validate(8); !errors.Is(err, ErrBadOptions) {
		t.Fatalf("5 wolves: %v", err)
	}
	if err := DefaultOptions().Validate(7); !errors.Is(err, ErrBadOptions) {
		t.Fatalf("7 players without small table: %v", err)
	}
	small := DefaultOptions()
	small.SmallTable = true
	if err := small.Validate(7); err != nil || !small.Unofficial() {
		t.Fatalf("small table: %v", err)
	}
	s, _, err := NewState(namesN(7), small, 1)
	if err != nil || !s.View(0).Unofficial {
		t.Fatalf("small table game: %v", err)
	}
	if _, _, err := (Game{}).New(game.Setup{Names: namesN(7), Options: small.Encode()}, 1); err != nil {
		t.Fatal(err)
	}
}

func TestScenario04_ReplayIsIdentical(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		opts := ClassicOptions()
		final, log := randomGame(t, namesN(12), opts, seed, nil)
		s, _, _ := NewState(namesN(12), opts, seed)
		g := Game{}
		for _, e := range log {
			next, _, err := g.Apply(s, e.Seat, e.Action)
			if err != nil {
				t.Fatal(err)
			}
			s = next.(*State)
		}
		a, _ := EncodeState(final)
		b, _ := EncodeState(s)
		if string(a) != string(b) {
			t.Fatal("replayed state differs")
		}
		for i := -1; i < 12; i++ {
			va, _ := json.Marshal(final.View(game.Seat(i)))
			vb, _ := json.Marshal(s.View(game.Seat(i)))
			if string(va) != string(vb) {
				t.Fatalf("view of %d differs", i)
			}
		}
	}
}

func TestScenario05_ThiefMustTakeAWolf(t *testing.T) {
	x := deal(t, "T V V V V V V V | W W", nil)
	x.until(PhaseThief)
	x.fail(P1, kind(KindThiefKeep), ErrMustSwap)
	x.do(P1, tgt(KindThiefTake, 0))
	if x.s.Players[P1].Card != RoleWerewolf || x.s.Players[P1].Team != TeamWolves {
		t.Fatal("thief is not a werewolf")
	}
	x.until(PhaseWolves)
	if v := x.view(P1); !slices.Equal(v.Wolves, []game.Seat{P1}) {
		t.Fatalf("wolves %v", v.Wolves)
	}
	x.do(P1, sel(P2))
}

func TestScenario06_ThiefTimesOutOnTwoWolves(t *testing.T) {
	x := deal(t, "T V V V V V V V | W W", nil)
	x.until(PhaseWolves)
	if x.s.Players[P1].Card != RoleWerewolf {
		t.Fatal("thief did not get a werewolf card")
	}
}

func TestScenario07_ThiefTimesOutAndKeeps(t *testing.T) {
	x := deal(t, "T S W V V V V V | W V", nil)
	x.until(PhaseSeer)
	if x.s.Players[P1].Card != RoleThief || x.s.Players[P1].Team != TeamVillage {
		t.Fatal("thief did not keep his card")
	}
	evs := x.do(P2, tgt(KindSeerInspect, P1))
	if !contains(to(evs, P2), "The card of P1 is: Thief") {
		t.Fatalf("seer saw %v", to(evs, P2))
	}
}

func TestScenario08_ThiefTakesTheSeer(t *testing.T) {
	x := deal(t, "T W W V V V V V | S V", nil)
	x.until(PhaseThief)
	x.do(P1, tgt(KindThiefTake, 0))
	x.until(PhaseSeer)
	if !x.view(P1).IsLegal(tgt(KindSeerInspect, P4)) {
		t.Fatal("the new seer gets no prompt")
	}
	x.do(P1, tgt(KindSeerInspect, P4))
	x.until(PhaseVote)
	for i := P2; i <= P8; i++ {
		x.do(i, ballot(P1))
	}
	x.do(P1, ballot(P2))
	if x.view(P4).Players[P1].Card != RoleSeer || x.s.Players[P1].Alive {
		t.Fatal("lynched thief not revealed as seer")
	}
	evs := x.do(int(game.System), kind(KindAbandon))
	if !contains(public(evs), "P1 Thief → Seer") {
		t.Fatalf("end screen: %v", public(evs))
	}
	if v := x.view(P4); v.Players[P1].Original != RoleThief {
		t.Fatal("end view lacks the thief's history")
	}
}

func TestScenario09_ThiefCardInTheMiddle(t *testing.T) {
	a := deal(t, "W W V V V V V V | T V", nil)
	b := deal(t, "T W W V V V V V | V V", nil)
	a.until(PhaseThief)
	for i := range 8 {
		if len(a.view(i).Legal) != 0 {
			t.Fatalf("seat %d has a prompt", i)
		}
	}
	evs := a.until(PhaseDawn)
	for i := range 8 {
		if len(to(evs[:1], i)) > 0 {
			t.Fatalf("seat %d got a private event in the thief step", i)
		}
	}
	if a.s.Phase != PhaseDawn {
		t.Fatal("no dawn")
	}
	b.until(PhaseDawn)
	if pa, pb := public(a.all), public(b.all); !slices.Equal(pa, pb) {
		t.Fatalf("public streams differ:\n%q\n%q", pa, pb)
	}
}

func TestScenario10_CupidLinksHimself(t *testing.T) {
	x := deal(t, "C W W V V V V V", nil)
	x.until(PhaseCupid)
	evs := x.do(P1, Action{Kind: KindCupidLink, Target: P1, Second: P5})
	evs = append(evs, x.until(PhaseLovers)...)
	for i := range 8 {
		got := to(evs, i)
		if (i == P1 || i == P5) != (len(got) > 0) {
			t.Fatalf("seat %d got %v", i, got)
		}
	}
	if !contains(to(evs, P5), "in love with P1") || !contains(to(evs, P1), "in love with P5") {
		t.Fatal("lovers not told")
	}
	v5 := x.view(P5)
	if v5.Partner != P1 || v5.Players[P1].Card != RoleUnknown {
		t.Fatal("P5 should know P1's name only")
	}
	if v1 := x.view(P1); v1.Partner != P5 || !slices.Equal(v1.Lovers, []game.Seat{P1, P5}) {
		t.Fatal("cupid does not see the pair")
	}
	if x.view(P4).Lovers != nil || x.view(P4).Players[P1].Lover {
		t.Fatal("a villager sees the lovers")
	}
}

func TestScenario11_CupidTimesOut(t *testing.T) {
	x := deal(t, "C W W V V V V V", nil)
	x.until(PhaseCupid)
	evs := x.tick()
	evs = append(evs, x.tick()...) // lovers step
	if !x.s.Linked || x.s.Lovers[0] == x.s.Lovers[1] {
		t.Fatal("no random pair")
	}
	a, b := x.s.Lovers[0], x.s.Lovers[1]
	if len(to(evs, P1)) == 0 || !contains(to(evs, a), "in love with") || !contains(to(evs, b), "in love with") {
		t.Fatal("lovers or cupid not informed")
	}
}

func TestScenario12_DevouredLoverTakesPartner(t *testing.T) {
	x := deal(t, "W W V V V V V C", nil)
	x.until(PhaseCupid)
	x.do(P8, Action{Kind: KindCupidLink, Target: P3, Second: P6})
	x.until(PhaseWolves)
	x.do(P1, sel(P3))
	x.do(P2, sel(P3))
	evs := x.until(PhaseDawn)
	if !slices.Equal(x.causes(P3), []Cause{CauseDevoured}) || !slices.Equal(x.causes(P6), []Cause{CauseHeartbreak}) {
		t.Fatalf("causes %v %v", x.causes(P3), x.causes(P6))
	}
	v := x.view(P4)
	if v.Players[P3].Card != RoleVillager || v.Players[P6].Card != RoleVillager {
		t.Fatal("cards not revealed")
	}
	if !contains(public(evs), "P3 was devoured") || !contains(public(evs), "P6 died of a broken heart") {
		t.Fatalf("dawn: %v", public(evs))
	}
}

func linked(t *testing.T, spec string, a, b int, tweak func(*Options)) *tg {
	x := deal(t, spec, tweak)
	x.until(PhaseCupid)
	x.do(slices.Index(x.s.cards(), RoleCupid), Action{Kind: KindCupidLink, Target: a, Second: b})
	return x
}

func (s *State) cards() []Role {
	var v []Role
	for _, p := range s.Players {
		v = append(v, p.Card)
	}
	return v
}

func TestScenario13_LynchedLoverTakesPartner(t *testing.T) {
	x := linked(t, "W W V V V V V C", P3, P6, nil)
	x.until(PhaseVote)
	for i := range 8 {
		if i == P3 || i == P6 {
			x.do(i, ballot(P4))
		} else {
			x.do(i, ballot(P3))
		}
	}
	if x.s.Phase != PhaseVerdict || !slices.Equal(x.causes(P6), []Cause{CauseHeartbreak}) || !slices.Equal(x.causes(P3), []Cause{CauseLynched}) {
		t.Fatalf("phase %v causes %v %v", x.s.Phase, x.causes(P3), x.causes(P6))
	}
}

func TestScenario14_LoverCannotVoteForPartner(t *testing.T) {
	x := linked(t, "W W V V V V V C", P3, P6, nil)
	x.until(PhaseVote)
	x.fail(P3, ballot(P6), ErrNotAllowed)
	x.do(P3, ballot(P4))
}

func TestScenario15_MixedCoupleWins(t *testing.T) {
	x := linked(t, "W W V V V V V C", P2, P7, nil)
	x.until(PhaseWolves)
	x.slay(P1, P3, P5, P6, P8)
	x.until(PhaseVote)
	x.do(P2, ballot(P4))
	x.do(P7, ballot(P4))
	x.do(P4, ballot(P2))
	x.until(PhaseGameOver)
	if x.s.Outcome != OutcomeLovers || !slices.Equal(x.s.Winners, []game.Seat{P2, P7}) {
		t.Fatalf("%s %v", x.s.Outcome, x.s.Winners)
	}
}

func TestScenario16_MixedCoupleDiesWolvesWin(t *testing.T) {
	x := linked(t, "W W W V V V V C", P2, P7, nil)
	x.until(PhaseWolves)
	x.slay(P3, P4, P5, P6, P8)
	x.do(P1, sel(P7))
	x.until(PhaseDawn)
	if !slices.Equal(x.causes(P2), []Cause{CauseHeartbreak}) {
		t.Fatalf("P2 causes %v", x.causes(P2))
	}
	x.until(PhaseGameOver)
	if x.s.Outcome != OutcomeWolves || !slices.Equal(x.s.Winners, []game.Seat{P1, P3}) {
		t.Fatalf("%s %v", x.s.Outcome, x.s.Winners)
	}
}

func TestScenario17_VillagerLoversWinWithVillage(t *testing.T) {
	x := linked(t, "W V V V V V V C", P3, P6, nil)
	x.until(PhaseVote)
	for i := P2; i <= P8; i++ {
		x.do(i, ballot(P1))
	}
	x.do(P1, ballot(P2))
	x.until(PhaseGameOver)
	if x.s.Outcome != OutcomeVillage || !slices.Contains(x.s.Winners, P3) || !slices.Contains(x.s.Winners, P6) || slices.Contains(x.s.Winners, P1) {
		t.Fatalf("%s %v", x.s.Outcome, x.s.Winners)
	}
}

func TestScenario18_UnanimousWolvesDevour(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.do(P2, sel(P4))
	x.until(PhaseDawn)
	if x.s.Players[P4].Alive || !slices.Equal(x.causes(P4), []Cause{CauseDevoured}) {
		t.Fatal("P4 not devoured")
	}
}

func TestScenario19_DisagreementMeansNoVictim(t *testing.T) {
	x := deal(t, "W W X V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.do(P2, sel(P5))
	evs := x.until(PhaseWitch)
	if !contains(to(evs, P3), "The werewolves have no victim tonight.") {
		t.Fatalf("witch told %v", to(evs, P3))
	}
	x.fail(P3, kind(KindWitchHeal), ErrNoVictim)
	evs = x.until(PhaseDawn)
	if !contains(public(evs), "Nobody died last night.") {
		t.Fatalf("dawn %v", public(evs))
	}
}

func TestScenario20_SilenceIsConsent(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.until(PhaseDawn)
	if x.s.Players[P4].Alive {
		t.Fatal("P4 survived")
	}
}

func TestScenario21_NoSelectionNoVictim(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	evs := x.until(PhaseDawn)
	if x.s.livingCount() != 8 || !contains(public(evs), "Nobody died last night.") {
		t.Fatal("someone died")
	}
}

func TestScenario22_WolvesCannotPickWolvesOrDead(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseWolves)
	x.fail(P1, sel(P2), ErrTargetWolf)
	x.slay(P6)
	x.fail(P1, sel(P6), ErrTargetDead)
	x.fail(P4, sel(P5), ErrNotAllowed)
}

func TestScenario23_ChangedSelection(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.do(P1, sel(P5))
	x.do(P2, sel(P5))
	x.until(PhaseDawn)
	if x.s.Players[P5].Alive || !x.s.Players[P4].Alive {
		t.Fatal("wrong victim")
	}
}

func TestScenario24_HealLooksLikeDisagreement(t *testing.T) {
	a := deal(t, "W W X V V V V V", nil)
	a.until(PhaseWolves)
	a.do(P1, sel(P4))
	a.do(P2, sel(P5))
	a.until(PhaseDiscussion)

	b := deal(t, "W W X V V V V V", nil)
	b.until(PhaseWolves)
	b.do(P1, sel(P4))
	b.do(P2, sel(P4))
	b.until(PhaseWitch)
	b.do(P3, kind(KindWitchHeal))
	b.until(PhaseDiscussion)
	if b.s.livingCount() != 8 {
		t.Fatal("healed victim died")
	}
	pa, pb := public(a.all), public(b.all)
	ja, _ := json.Marshal(pa)
	jb, _ := json.Marshal(pb)
	if string(ja) != string(jb) {
		t.Fatalf("public events differ:\n%s\n%s", ja, jb)
	}
}

func TestScenario25_WitchHealsHerself(t *testing.T) {
	x := deal(t, "W W X V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P3))
	x.until(PhaseWitch)
	if x.view(P3).Victim != P3 {
		t.Fatal("witch does not see herself as the victim")
	}
	x.do(P3, kind(KindWitchHeal))
	x.until(PhaseDawn)
	if !x.s.Players[P3].Alive || x.s.HealLeft {
		t.Fatal("heal")
	}
	x.until(PhaseNightFall)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.until(PhaseWitch)
	x.fail(P3, kind(KindWitchHeal), ErrNoPotion)
}

func TestScenario26_HealAndPoison(t *testing.T) {
	x := deal(t, "W W X V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.until(PhaseWitch)
	x.do(P3, kind(KindWitchHeal))
	x.do(P3, tgt(KindWitchPoison, P7))
	x.until(PhaseDawn)
	if !x.s.Players[P4].Alive || !slices.Equal(x.causes(P7), []Cause{CausePoisoned}) || x.s.HealLeft || x.s.PoisonLeft {
		t.Fatal("heal and poison")
	}
	if x.s.livingCount() != 7 {
		t.Fatal("extra deaths")
	}
}

func TestScenario27_WitchPoisonsHerself(t *testing.T) {
	x := deal(t, "W W X V V V V V", nil)
	x.until(PhaseWitch)
	x.do(P3, tgt(KindWitchPoison, P3))
	x.until(PhaseDawn)
	if x.s.Players[P3].Alive || x.view(P4).Players[P3].Card != RoleWitch {
		t.Fatal("witch not dead and revealed")
	}
}

func TestScenario28_PoisonTheUnhealedVictim(t *testing.T) {
	x := deal(t, "W W X V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.until(PhaseWitch)
	x.do(P3, tgt(KindWitchPoison, P4))
	evs := x.until(PhaseDawn)
	if !slices.Equal(x.causes(P4), []Cause{CauseDevoured, CausePoisoned}) {
		t.Fatalf("causes %v", x.causes(P4))
	}
	n := 0
	for _, l := range public(evs) {
		if strings.HasPrefix(l, "P4 ") {
			n++
			if !strings.Contains(l, "devoured") || !strings.Contains(l, "poisoned") {
				t.Fatalf("line %q", l)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d death lines", n)
	}
}

func TestScenario29_HunterDevouredShootsBeforeWinCheck(t *testing.T) {
	x := deal(t, "W W H V V V V V", nil)
	x.until(PhaseWolves)
	x.slay(P2, P6, P7, P8)
	x.do(P1, sel(P3))
	x.until(PhaseDawn)
	x.tick()
	if x.s.Phase != PhaseHunterShot || x.s.Over {
		t.Fatalf("phase %v", x.s.Phase)
	}
	x.do(P3, tgt(KindHunterShoot, P1))
	if x.s.Players[P1].Alive || x.view(P4).Players[P1].Card != RoleWerewolf {
		t.Fatal("W1 not shot and revealed")
	}
	if x.s.Outcome != OutcomeVillage {
		t.Fatalf("outcome %q", x.s.Outcome)
	}
}

func TestScenario30_HunterShotLeavesNobody(t *testing.T) {
	x := deal(t, "W H V V V V V V", nil)
	x.slay(P3, P4, P5, P6, P7, P8)
	x.s.Sheriff, x.s.Elected = P1, true
	x.until(PhaseVote)
	x.do(P1, ballot(P2))
	x.do(P2, ballot(P1))
	x.until(PhaseHunterShot)
	if !slices.Equal(x.causes(P2), []Cause{CauseLynched}) {
		t.Fatal("hunter not lynched by the double ballot")
	}
	x.do(P2, tgt(KindHunterShoot, P1))
	if x.s.Outcome != OutcomeNone || len(x.s.Winners) != 0 {
		t.Fatalf("outcome %q %v", x.s.Outcome, x.s.Winners)
	}
}

func TestScenario31_HeartbrokenHunterShootsLastWolf(t *testing.T) {
	x := linked(t, "W H V V V V V C", P2, P3, nil)
	x.until(PhaseWolves)
	x.slay(P4, P5, P6, P7, P8)
	x.do(P1, sel(P3))
	x.until(PhaseHunterShot)
	if !slices.Equal(x.causes(P2), []Cause{CauseHeartbreak}) {
		t.Fatal("hunter did not die of heartbreak")
	}
	x.do(P2, tgt(KindHunterShoot, P1))
	if x.s.Outcome != OutcomeNone {
		t.Fatalf("outcome %q", x.s.Outcome)
	}
}

func TestScenario32_HunterTimesOut(t *testing.T) {
	x := deal(t, "W W H V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P3))
	x.until(PhaseHunterShot)
	evs := x.tick()
	if !contains(public(evs), "lowers the rifle") || x.s.livingCount() != 7 {
		t.Fatalf("%v", public(evs))
	}
}

func TestScenario33_PoisonedHunterShoots(t *testing.T) {
	x := deal(t, "W W H X V V V V", nil)
	x.until(PhaseWitch)
	x.do(P4, tgt(KindWitchPoison, P3))
	x.until(PhaseHunterShot)
	if !x.view(P3).IsLegal(tgt(KindHunterShoot, P1)) {
		t.Fatal("poisoned hunter cannot shoot")
	}
}

func TestScenario34_HunterShootsALover(t *testing.T) {
	x := linked(t, "W W V H V V V C", P3, P6, nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.until(PhaseHunterShot)
	x.do(P4, tgt(KindHunterShoot, P3))
	if !slices.Equal(x.causes(P3), []Cause{CauseShot}) || !slices.Equal(x.causes(P6), []Cause{CauseHeartbreak}) {
		t.Fatalf("causes %v %v", x.causes(P3), x.causes(P6))
	}
	if x.s.Over || x.s.Phase != PhaseDiscussion {
		t.Fatalf("phase %v", x.s.Phase)
	}
}

func TestScenario35_LynchRevealsBallots(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseVote)
	for _, v := range []struct{ from, to int }{{P1, P5}, {P2, P5}, {P3, P5}, {P4, P2}, {P6, P2}} {
		x.do(v.from, ballot(v.to))
	}
	if x.view(P8).VotesCast != 5 {
		t.Fatal("vote progress")
	}
	x.do(P5, kind(KindAbstain))
	x.do(P7, kind(KindAbstain))
	evs := x.do(P8, kind(KindAbstain))
	if x.s.Phase != PhaseVerdict || x.s.Players[P5].Alive {
		t.Fatal("P5 not lynched")
	}
	want := []string{"P1 votes for P5.", "P2 votes for P5.", "P3 votes for P5.", "P4 votes for P2.", "P5 abstains.", "P6 votes for P2.", "P7 abstains.", "P8 abstains."}
	var got []string
	for _, l := range public(evs) {
		if strings.Contains(l, " votes for ") || strings.HasSuffix(l, " abstains.") {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("reveal %q", got)
	}
}

func voteAll(x *tg, ballots map[int]int) {
	for i := range x.s.Players {
		if !x.s.Players[i].Alive {
			continue
		}
		if t, ok := ballots[i]; ok {
			x.do(i, ballot(t))
		} else if x.s.Phase == PhaseVote || x.s.Phase == PhaseSheriffVote || x.s.Phase == PhaseSheriffRunoff {
			x.do(i, kind(KindAbstain))
		}
	}
}

func TestScenario36_TieWithoutSheriff(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseVote)
	voteAll(x, map[int]int{P1: P5, P2: P5, P3: P6, P4: P6})
	if x.s.Phase != PhaseVerdict || x.s.livingCount() != 8 {
		t.Fatal("tie killed someone")
	}
}

func TestScenario37_SheriffCountsDouble(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.s.Sheriff, x.s.Elected = P1, true
	x.until(PhaseVote)
	voteAll(x, map[int]int{P1: P2, P3: P2, P4: P7, P5: P7})
	if x.s.Players[P2].Alive || !x.s.Players[P7].Alive {
		t.Fatal("sheriff's double ballot ignored")
	}
}

func TestScenario38_SheriffBreaksTies(t *testing.T) {
	for _, timeout := range []bool{false, true} {
		x := deal(t, "W W V V V V V V", nil)
		x.s.Sheriff, x.s.Elected = P1, true
		x.until(PhaseVote)
		voteAll(x, map[int]int{P3: P2, P4: P2, P5: P7, P6: P7})
		if x.s.Phase != PhaseSheriffTiebreak {
			t.Fatalf("phase %v", x.s.Phase)
		}
		legal := x.view(P1).Legal
		if !slices.Equal(legal, []Action{tgt(KindTiebreak, P2), tgt(KindTiebreak, P7)}) {
			t.Fatalf("legal %v", legal)
		}
		if timeout {
			x.tick()
			if x.s.Phase != PhaseVerdict || x.s.livingCount() != 8 {
				t.Fatal("timeout lynched someone")
			}
			continue
		}
		x.do(P1, tgt(KindTiebreak, P7))
		if x.s.Players[P7].Alive || !x.s.Players[P2].Alive {
			t.Fatal("P7 not lynched")
		}
	}
}

func TestScenario39_SheriffCannotPickPartner(t *testing.T) {
	x := linked(t, "V W W V V V V C", P1, P7, nil)
	x.s.Sheriff, x.s.Elected = P1, true
	x.until(PhaseVote)
	voteAll(x, map[int]int{P3: P2, P4: P2, P5: P7, P6: P7})
	x.fail(P1, tgt(KindTiebreak, P7), ErrNotAllowed)
	if legal := x.view(P1).Legal; !slices.Equal(legal, []Action{tgt(KindTiebreak, P2)}) {
		t.Fatalf("legal %v", legal)
	}
}

func TestScenario40_SheriffElectionByLot(t *testing.T) {
	run := func() *tg {
		x := deal(t, "W W V V V V V V", func(o *Options) { o.Sheriff = true })
		x.until(PhaseSheriffCampaign)
		for i := range 8 {
			x.do(i, Action{Kind: KindReady, On: true})
		}
		if x.s.Phase != PhaseSheriffVote || len(x.s.Eligible) != 8 {
			t.Fatalf("phase %v eligible %v", x.s.Phase, x.s.Eligible)
		}
		voteAll(x, map[int]int{P1: P4, P2: P4, P3: P4, P4: P5, P6: P5, P7: P5})
		if x.s.Phase != PhaseSheriffRunoff || !slices.Equal(x.s.Eligible, []int{P4, P5}) {
			t.Fatalf("phase %v eligible %v", x.s.Phase, x.s.Eligible)
		}
		x.fail(P4, ballot(P4), ErrSelf)
		voteAll(x, map[int]int{P1: P4, P2: P4, P3: P4, P6: P5, P7: P5, P8: P5})
		if x.s.Phase != PhaseDiscussion || (x.s.Sheriff != P4 && x.s.Sheriff != P5) {
			t.Fatalf("phase %v sheriff %d", x.s.Phase, x.s.Sheriff)
		}
		return x
	}
	a, b := run(), run()
	if a.s.Sheriff != b.s.Sheriff {
		t.Fatal("lot differs across replays")
	}
	if legal := a.view(a.s.Sheriff).Legal; !slices.Equal(legal, []Action{{Kind: KindReady, On: true}}) {
		t.Fatalf("elected sheriff may %v", legal)
	}
}

func TestScenario41_SheriffSuccession(t *testing.T) {
	for _, timeout := range []bool{false, true} {
		x := deal(t, "W W V V V V V V", nil)
		x.s.Sheriff, x.s.Elected = P4, true
		x.until(PhaseWolves)
		x.do(P1, sel(P4))
		x.until(PhaseSheriffSuccession)
		if !x.view(P4).LastBreath {
			t.Fatal("dead sheriff has no last breath")
		}
		if timeout {
			x.tick()
			if !x.s.alive(x.s.Sheriff) {
				t.Fatal("badge to a dead player")
			}
		} else {
			x.do(P4, tgt(KindSuccessor, P6))
			if x.s.Sheriff != P6 {
				t.Fatal("successor")
			}
		}
		if x.s.Phase != PhaseDiscussion {
			t.Fatalf("phase %v", x.s.Phase)
		}
	}
}

func TestScenario42_SheriffHunterLynched(t *testing.T) {
	for _, ends := range []bool{false, true} {
		x := deal(t, "W W H V V V V V", nil)
		x.s.Sheriff, x.s.Elected = P3, true
		if ends {
			x.slay(P2)
		}
		x.until(PhaseVote)
		m := map[int]int{P3: P1}
		for i := range 8 {
			if i != P3 {
				m[i] = P3
			}
		}
		voteAll(x, m)
		x.until(PhaseHunterShot)
		x.do(P3, tgt(KindHunterShoot, P1))
		if ends {
			if !x.s.Over || x.s.Outcome != OutcomeVillage || x.s.Phase != PhaseGameOver {
				t.Fatal("the shot should end the game")
			}
			continue
		}
		if x.s.Phase != PhaseSheriffSuccession {
			t.Fatalf("phase %v", x.s.Phase)
		}
	}
}

func TestScenario43_LastBreathPrivacy(t *testing.T) {
	g := Game{}
	x := deal(t, "W W H V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P3))
	x.until(PhaseDawn)
	x.slay(P8)
	check := func(wantAll bool) {
		v := x.view(P3)
		for i, p := range v.Players {
			if i != P3 && p.Alive && (p.Card != RoleUnknown) != wantAll {
				t.Fatalf("hunter sees seat %d: %v (want all %v)", i, p.Card, wantAll)
			}
		}
		evs, err := g.Say(x.s, P8, "boo")
		if err != nil || len(evs) != 1 || evs[0].Channel != ChannelDead || evs[0].Audience.Includes(P3) != wantAll {
			t.Fatalf("dead chat %v %v", evs, err)
		}
	}
	check(false)
	x.until(PhaseHunterShot)
	check(false)
	if _, err := g.Say(x.s, P3, "hi"); !errors.Is(err, ErrNotAllowed) {
		t.Fatal("pending hunter may chat")
	}
	x.do(P3, tgt(KindHunterShoot, P4))
	check(true)
}

func TestScenario44_LittleGirlRelayIsAnonymous(t *testing.T) {
	names := []string{"Wolfa", "Wolfb", "Lily", "Anna", "Bob", "Cyd", "Dee", "Eve"}
	x := dealNamed(t, "W W L V V V V V", names, func(o *Options) { o.LittleGirlRelay, o.LittleGirlCatch = 1, 0 })
	x.until(PhaseWolves)
	x.do(P3, Action{Kind: KindPeek, On: true})
	var evs []game.Event
	e, err := x.g.Say(x.s, P1, "eat Anna")
	if err != nil {
		t.Fatal(err)
	}
	evs = append(evs, e...)
	evs = append(evs, x.do(P2, Action{Kind: KindSay, Text: "yes Wolfa, eat anna"})...)
	evs = append(evs, x.do(P1, sel(P4))...)
	got := to(evs, P3)
	if !slices.Contains(got, "A werewolf: eat Anna") || !slices.Contains(got, "A werewolf points at Anna.") {
		t.Fatalf("relay %q", got)
	}
	for _, e := range evs {
		if !e.Audience.Includes(P3) {
			continue
		}
		if e.From != -1 || strings.Contains(evText(e), "Wolfa") || strings.Contains(evText(e), "Wolfb") || e.Channel != ChannelRelay {
			t.Fatalf("relay leaks: %+v", e)
		}
		for _, i := range []int{P4, P5, P6, P7, P8} {
			if e.Audience.Includes(game.Seat(i)) {
				t.Fatalf("villager %d gets %q", i, evText(e))
			}
		}
	}
	for i := P4; i <= P8; i++ {
		if len(to(evs, i)) > 0 {
			t.Fatalf("villager %d got %v", i, to(evs, i))
		}
	}
}

func TestScenario45_LittleGirlCaught(t *testing.T) {
	x := deal(t, "W W L X V V V V", func(o *Options) { o.LittleGirlRelay, o.LittleGirlCatch = 1, 1 })
	x.until(PhaseWolves)
	x.do(P3, Action{Kind: KindPeek, On: true})
	x.do(P1, sel(P5)) // relayed and caught at once
	if !x.s.Caught {
		t.Fatal("not caught")
	}
	if !contains(to(x.all, P1), "it is P3") || !contains(to(x.all, P3), "caught you") {
		t.Fatal("catch not told")
	}
	x.fail(P2, sel(P7), ErrLocked)
	x.until(PhaseWitch)
	if v := x.view(P4); v.Victim != P3 || !v.IsLegal(kind(KindWitchHeal)) {
		t.Fatalf("witch sees victim %d", v.Victim)
	}
	x.do(P4, kind(KindWitchHeal))
	x.until(PhaseDawn)
	if x.s.livingCount() != 8 {
		t.Fatal("healed little girl died")
	}
}

func TestScenario45_LittleGirlCaughtWhileWolvesDisagree(t *testing.T) {
	x := deal(t, "W W L V V V V V", func(o *Options) { o.LittleGirlRelay, o.LittleGirlCatch = 1, 0 })
	x.until(PhaseWolves)
	x.do(P3, Action{Kind: KindPeek, On: true})
	x.do(P1, sel(P4))
	x.do(P2, sel(P5))
	x.s.Opts.LittleGirlCatch = 1 // the next glimpse gets her caught
	x.do(P1, Action{Kind: KindSay, Text: "no, P5!"})
	if !x.s.Caught {
		t.Fatal("not caught")
	}
	x.until(PhaseDawn)
	if x.s.Players[P3].Alive || !x.s.Players[P4].Alive || !x.s.Players[P5].Alive {
		t.Fatal("the little girl should be the only victim")
	}
}

func TestScenario46_LittleGirlAsleep(t *testing.T) {
	x := deal(t, "W W L V V V V V", func(o *Options) { o.LittleGirlRelay, o.LittleGirlCatch = 1, 1 })
	x.until(PhaseWolves)
	evs := x.do(P1, Action{Kind: KindSay, Text: "eat P4"})
	evs = append(evs, x.do(P1, sel(P4))...)
	if len(to(evs, P3)) > 0 || x.s.Caught {
		t.Fatal("relay without peeking")
	}
}

func TestScenario47_NightTimingIgnoresDeadSeer(t *testing.T) {
	trace := func(killSeer bool) []string {
		x := deal(t, "W W S V V V V V", nil)
		x.until(PhaseDiscussion)
		x.until(PhaseNightFall)
		if killSeer {
			x.slay(P3)
		}
		var v []string
		for x.s.Night < 4 {
			if x.s.Phase.Night() {
				tm, _ := x.s.Timer()
				v = append(v, x.s.Phase.String()+"/"+tm.After.String())
			}
			x.tick()
		}
		return v
	}
	a, b := trace(false), trace(true)
	if !slices.Equal(a, b) || len(a) < 6 {
		t.Fatalf("%v\n%v", a, b)
	}
}

func TestScenario48_VillagerViewsDoNotDependOnNightActions(t *testing.T) {
	views := func(actions func(x *tg)) map[uint64]string {
		x := deal(t, "W W S X V V V V", nil)
		v := map[uint64]string{}
		x.snap = func() { // the last view of each phase
			b, _ := json.Marshal(x.view(P6))
			v[x.s.PhaseSeq] = string(b)
		}
		actions(x)
		x.until(PhaseDiscussion)
		return v
	}
	seer := func(target int) func(x *tg) {
		return func(x *tg) { x.until(PhaseSeer); x.do(P3, tgt(KindSeerInspect, target)) }
	}
	if a, b := views(seer(P4)), views(seer(P5)); !maps.Equal(a, b) {
		t.Fatal("villager view depends on the seer's choice")
	}
	heal := func(x *tg) {
		x.until(PhaseWolves)
		x.do(P1, sel(P7))
		x.do(P2, sel(P7))
		x.until(PhaseWitch)
		x.do(P4, kind(KindWitchHeal))
	}
	disagree := func(x *tg) {
		x.until(PhaseWolves)
		x.do(P1, sel(P7))
		x.do(P2, sel(P8))
	}
	if a, b := views(heal), views(disagree); !maps.Equal(a, b) {
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("villager view depends on heal vs disagreement:\n%s\n%s", a[i], b[i])
			}
		}
		t.Fatal("villager view depends on heal vs disagreement")
	}
}

func TestScenario49_StaleTickIgnored(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	tm, _ := x.s.Timer()
	x.tick()
	before, _ := EncodeState(x.s)
	next, evs, err := x.g.Apply(x.s, game.System, tm.Action)
	after, _ := EncodeState(next.(*State))
	if err != nil || len(evs) != 0 || string(before) != string(after) {
		t.Fatal("stale tick had an effect")
	}
}

func TestScenario50_EarlyEnds(t *testing.T) {
	x := deal(t, "W W S V V V V V", nil)
	x.until(PhaseSeer)
	x.do(P3, tgt(KindSeerInspect, P1))
	if x.s.Phase != PhaseSeer {
		t.Fatal("strict seer step ended early")
	}
	x.until(PhaseDiscussion)
	for i := range 8 {
		x.do(i, Action{Kind: KindReady, On: true})
	}
	if x.s.Phase != PhaseVote {
		t.Fatal("discussion did not end when all were ready")
	}
	voteAll(x, map[int]int{})
	if x.s.Phase != PhaseVerdict {
		t.Fatal("vote did not close on the last ballot")
	}
}

func TestScenario51_FastNights(t *testing.T) {
	x := deal(t, "W W S V V V V V", func(o *Options) { o.NightTiming = TimingFast })
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	if x.s.Phase != PhaseWolves {
		t.Fatal("ended before agreement")
	}
	x.do(P2, sel(P4))
	if x.s.Phase != PhaseDawn {
		t.Fatalf("fast wolves step did not end: %v", x.s.Phase)
	}
	x.until(PhaseNightFall)
	x.slay(P3)
	x.tick()
	if x.s.Phase != PhaseWolves {
		t.Fatalf("dead seer's step ran: %v", x.s.Phase)
	}
	x.do(P1, sel(P5))
	x.do(P2, kind(KindWolfDone)) // Done without a selection is consent
	if x.s.Phase != PhaseDawn || x.s.Players[P5].Alive {
		t.Fatalf("fast wolves step with Done: %v", x.s.Phase)
	}
	if x.s.Phase != PhaseDawn {
		t.Fatalf("dead seer's step ran: %v", x.s.Phase)
	}
}

func TestScenario52_AbsentSeer(t *testing.T) {
	x := deal(t, "W W S V V V V V", nil)
	x.until(PhaseSeer)
	x.do(P3, tgt(KindSeerInspect, P1))
	x.until(PhaseNightFall)
	x.until(PhaseSeer)
	x.until(PhaseWolves)
	v := x.view(P3)
	if v.Card != RoleSeer || len(v.Visions) != 1 || v.Visions[0].Card != RoleWerewolf {
		t.Fatalf("seer view %v %v", v.Card, v.Visions)
	}
}

func TestScenario53_DeadPlayers(t *testing.T) {
	g := Game{}
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P4))
	x.until(PhaseDiscussion)
	evs, err := g.Say(x.s, P4, "I was a villager!")
	if err != nil || len(evs) != 1 || evs[0].Channel != ChannelDead || evs[0].Audience.All || !slices.Equal(evs[0].Audience.Seats, []game.Seat{P4}) {
		t.Fatalf("dead chat %+v %v", evs, err)
	}
	evs, _ = g.Say(x.s, P5, "hello")
	if len(evs) != 1 || evs[0].Channel != ChannelTable || !evs[0].Audience.All {
		t.Fatal("living chat")
	}
	x.until(PhaseVote)
	x.fail(P4, ballot(P5), ErrNotAllowed)
	sp := x.view(int(game.Spectator))
	for i, p := range sp.Players {
		if p.Alive && p.Card != RoleUnknown {
			t.Fatalf("spectator sees seat %d", i)
		}
	}
}

func TestScenario54_WolvesChannelOnlyAtNight(t *testing.T) {
	g := Game{}
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseWolves)
	evs, err := g.Say(x.s, P1, "who?")
	if err != nil || len(evs) != 1 || evs[0].Channel != ChannelWolves || !slices.Equal(evs[0].Audience.Seats, []game.Seat{P1, P2}) {
		t.Fatalf("%+v %v", evs, err)
	}
	if _, err := g.Say(x.s, P4, "zzz"); !errors.Is(err, ErrChatClosed) {
		t.Fatal("villager spoke at night")
	}
	x.until(PhaseDiscussion)
	if _, err := g.Say(x.s, P1, WolvesPrefix+"psst"); !errors.Is(err, ErrNotAllowed) {
		t.Fatal("wolves channel open by day")
	}
}

func TestScenario55_WolfAndWitchDieTogether(t *testing.T) {
	x := deal(t, "W X V V V V V V", nil)
	x.until(PhaseWolves)
	x.slay(P3, P4, P5, P6, P7, P8)
	x.do(P1, sel(P2))
	x.until(PhaseWitch)
	x.do(P2, tgt(KindWitchPoison, P1))
	x.until(PhaseGameOver)
	if x.s.Outcome != OutcomeNone {
		t.Fatalf("outcome %q", x.s.Outcome)
	}
}

func TestScenario56_Stalemate(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.until(PhaseGameOver)
	if x.s.Outcome != OutcomeStalemate || x.s.Night != 5 {
		t.Fatalf("outcome %q night %d", x.s.Outcome, x.s.Night)
	}
	if r, ok := x.g.Result(x.s); !ok || len(r.Winners) != 0 {
		t.Fatal("result")
	}
}

func TestScenario57_Abandon(t *testing.T) {
	x := deal(t, "W W V V V V V V", nil)
	x.fail(P1, kind(KindAbandon), ErrNotAllowed)
	x.do(int(game.System), kind(KindAbandon))
	r, ok := x.g.Result(x.s)
	if !ok || r.Outcome != OutcomeAbandoned || len(r.Winners) != 0 {
		t.Fatalf("%+v", r)
	}
	x.fail(P1, sel(P3), game.ErrGameOver)
}
