package werewolf

import (
	"slices"
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
