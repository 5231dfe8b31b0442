package werewolf

import (
	"slices"
	"testing"

	"bivouac/game"
)

// What the narrator says must be true (issue 19 item 4, issue 18 item 22).

// The thief's own view of the middle is the middle as it is now: after he
// takes a card, his thief card lies there.
func TestThiefSeesTheMiddleAfterHisSwap(t *testing.T) {
	x := deal(t, "T W W V V V V V | S V", nil)
	x.until(PhaseThief)
	if got := x.view(P1).Middle; !slices.Equal(got, []Role{RoleSeer, RoleVillager}) {
		t.Fatalf("before the swap the thief sees %v", got)
	}
	x.do(P1, tgt(KindThiefTake, 0))
	x.until(PhaseDawn)
	if got := x.view(P1).Middle; !slices.Equal(got, []Role{RoleThief, RoleVillager}) {
		t.Fatalf("after taking the seer the thief's panel shows the middle as %v", got)
	}
	if got := x.view(P1).ThiefSaw; !slices.Equal(got, []Role{RoleSeer, RoleVillager}) {
		t.Fatalf("what the thief saw is kept: %v", got)
	}
	if got := x.view(P4).Middle; got != nil {
		t.Fatalf("a villager sees the middle: %v", got)
	}
}

// A successor drawn by lot is not announced as the dying sheriff's choice.
func TestSheriffSuccessionByLotSaysSo(t *testing.T) {
	for _, timeout := range []bool{false, true} {
		x := deal(t, "W W V V V V V V", nil)
		x.s.Sheriff, x.s.Elected = P4, true
		x.until(PhaseWolves)
		x.do(P1, sel(P4))
		x.until(PhaseSheriffSuccession)
		var evs []game.Event
		if timeout {
			evs = x.tick()
		} else {
			evs = x.do(P4, tgt(KindSuccessor, P6))
		}
		chose, lot := contains(public(evs), "hands the sheriff's badge"), contains(public(evs), "drawn by lot")
		if chose == timeout || lot != timeout {
			t.Fatalf("timeout %v: the table was told %q", timeout, public(evs))
		}
	}
}

// Cupid who let the time run out is told that fate chose the couple.
func TestCupidTimeoutIsNotCupidsChoice(t *testing.T) {
	x := deal(t, "C W W V V V V V", nil)
	x.until(PhaseCupid)
	evs := x.tick()
	if !contains(to(evs, P1), "You did not choose in time") {
		t.Fatalf("cupid was told %q", to(evs, P1))
	}
	y := deal(t, "C W W V V V V V", nil)
	y.until(PhaseCupid)
	evs = y.do(P1, Action{Kind: KindCupidLink, Target: P2, Second: P5})
	if contains(to(evs, P1), "did not choose") || !contains(to(evs, P1), "are now lovers") {
		t.Fatalf("cupid's own choice was told as %q", to(evs, P1))
	}
}

// A mixed couple learns at once that they now win only as the last two
// alive; a couple of one side learns nothing of the kind.
func TestMixedLoversAreToldTheirGoal(t *testing.T) {
	x := deal(t, "C W W V V V V V", nil)
	x.until(PhaseCupid)
	evs := x.do(P1, Action{Kind: KindCupidLink, Target: P2, Second: P5})
	evs = append(evs, x.until(PhaseWolves)...)
	for _, seat := range []int{P2, P5} {
		if !contains(to(evs, seat), "last two alive") {
			t.Fatalf("lover %d was told %q", seat, to(evs, seat))
		}
	}
	for _, seat := range []int{P1, P3, P4, P6} {
		if contains(to(evs, seat), "last two alive") {
			t.Fatalf("seat %d learned the couple's goal", seat)
		}
	}
	y := deal(t, "C W W V V V V V", nil)
	y.until(PhaseCupid)
	evs = y.do(P1, Action{Kind: KindCupidLink, Target: P4, Second: P5})
	evs = append(evs, y.until(PhaseWolves)...)
	if contains(to(evs, P4), "last two alive") || contains(to(evs, P5), "last two alive") {
		t.Fatal("a village couple was told it changed sides")
	}
}

// A lone wolf is not told that "the werewolves did not agree".
func TestLoneWolfIsNotToldThePackDisagreed(t *testing.T) {
	x := deal(t, "W V V V V V V V", nil)
	x.until(PhaseWolves)
	evs := x.until(PhaseDawn)
	if contains(to(evs, P1), "did not agree") || !contains(to(evs, P1), "You chose no victim") {
		t.Fatalf("the lone wolf was told %q", to(evs, P1))
	}
	y := deal(t, "W W V V V V V V", nil)
	y.until(PhaseWolves)
	y.do(P1, sel(P4))
	y.do(P2, sel(P5))
	evs = y.until(PhaseDawn)
	if !contains(to(evs, P1), "did not agree") {
		t.Fatalf("a split pack was told %q", to(evs, P1))
	}
}
