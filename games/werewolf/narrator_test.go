package werewolf

import (
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
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

// Lovers only look at each other and show no card (the rulebook, set-up
// F): a mixed couple is told exactly what any couple is, so the villager
// does not learn that the partner is a werewolf; the rules still score the
// couple's goal as theirs alone.
func TestMixedLoversAreToldWhatAnyCoupleIs(t *testing.T) {
	told := func(a, b int) (map[int][]string, *tg) {
		x := deal(t, "C W W V V V V V", nil)
		x.until(PhaseCupid)
		evs := x.do(P1, Action{Kind: KindCupidLink, Target: a, Second: b})
		evs = append(evs, x.until(PhaseWolves)...)
		m := map[int][]string{}
		for _, seat := range []int{a, b} {
			for _, line := range to(evs, seat) {
				for _, p := range x.s.Players { // the partner's name aside
					line = strings.ReplaceAll(line, p.Name, "NAME")
				}
				m[seat] = append(m[seat], line)
			}
		}
		return m, x
	}
	mixed, x := told(P2, P5)
	plain, _ := told(P4, P5)
	// The werewolf lover also meets the pack, as any werewolf does.
	if !slices.Equal(mixed[P5], plain[P5]) || len(mixed[P2]) != 2 || !slices.Equal(mixed[P2][:1], plain[P4]) {
		t.Fatalf("a mixed couple was told %q / %q, a village couple %q / %q", mixed[P2], mixed[P5], plain[P4], plain[P5])
	}
	if !contains(mixed[P5], "last two alive") {
		t.Fatalf("the lovers are not told the rule: %q", mixed[P5])
	}
	if v := x.view(P5); v.Players[P2].Card != RoleUnknown {
		t.Fatalf("the villager lover sees the partner's card %v", v.Players[P2].Card)
	}
	if x.s.Players[P5].Team != TeamLovers || x.s.Players[P2].Team != TeamLovers {
		t.Fatal("the couple's goal is no longer theirs alone")
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
