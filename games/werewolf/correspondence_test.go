package werewolf

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

func corr(day, night int) func(*Options) {
	return func(o *Options) { o.DayHours, o.NightHours = day, night }
}

// A correspondence game's phases share its day and night: each role step
// an equal part of the night (every called step, whoever holds its card),
// the discussion two thirds of the day and the vote one third; the
// informing steps keep their seconds.
func TestCorrespondenceWindows(t *testing.T) {
	x := deal(t, "W W S X V V V V", corr(12, 6))
	if tm, _ := x.g.Timer(x.s); tm.After != 5*time.Second {
		t.Errorf("nightfall runs %v", tm.After)
	}
	want := map[Phase]time.Duration{
		PhaseSeer:       2 * time.Hour, // seer, wolves, witch: 6 h / 3
		PhaseWolves:     2 * time.Hour,
		PhaseWitch:      2 * time.Hour,
		PhaseDawn:       10 * time.Second,
		PhaseDiscussion: 8 * time.Hour,
		PhaseVote:       4 * time.Hour,
	}
	for _, p := range []Phase{PhaseSeer, PhaseWolves, PhaseWitch, PhaseDawn, PhaseDiscussion, PhaseVote} {
		x.until(p)
		if tm, _ := x.g.Timer(x.s); tm.After != want[p] {
			t.Errorf("%v runs %v, want %v", p, tm.After, want[p])
		}
	}
	// Live, the spec's seconds.
	live := deal(t, "W W S X V V V V", nil)
	live.until(PhaseSeer)
	if tm, _ := live.g.Timer(live.s); tm.After != 30*time.Second {
		t.Errorf("live seer step runs %v", tm.After)
	}
}

func TestCorrespondenceOptionsValidate(t *testing.T) {
	o := DefaultOptions()
	o.DayHours, o.NightHours = 24, 12
	if err := o.Validate(8); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Options){
		func(o *Options) { o.NightHours = 0 },
		func(o *Options) { o.DayHours = 0 },
		func(o *Options) { o.DayHours = MaxDayHours + 1 },
		func(o *Options) { o.NightHours = MaxNightHours + 1 },
		func(o *Options) { o.NightHours = -1 },
		func(o *Options) { o.NightTiming = TimingFast },
	} {
		b := o
		bad(&b)
		if err := b.Validate(8); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%+v validated: %v", b, err)
		}
	}
}

// At a night step's deadline a stand-in takes the role's action for a
// seat that has not: the seer's, the witch's, the wolves' while none has
// chosen (once one has, the others' silence is consent); never a vote, nor
// the little girl's peek.
func TestOverdueNamesTheNightsRoleActions(t *testing.T) {
	x := deal(t, "W W S X L V V V", corr(12, 6))
	over := func() []game.Seat { return x.g.Overdue(x.s) }
	if got := over(); got != nil {
		t.Errorf("at nightfall: %v", got)
	}
	x.until(PhaseSeer)
	if got := over(); !slices.Equal(got, []game.Seat{P3}) {
		t.Errorf("seer step: %v", got)
	}
	x.do(P3, tgt(KindSeerInspect, P5))
	if got := over(); got != nil {
		t.Errorf("after the seer looked: %v", got)
	}
	x.until(PhaseWolves)
	if got := over(); !slices.Equal(got, []game.Seat{P1, P2}) {
		t.Errorf("wolves' step: %v", got)
	}
	x.do(P1, sel(P6))
	if got := over(); got != nil {
		t.Errorf("after one wolf chose: %v", got)
	}
	x.until(PhaseWitch)
	if got := over(); !slices.Equal(got, []game.Seat{P4}) {
		t.Errorf("witch step: %v", got)
	}
	x.until(PhaseVote)
	if got := over(); got != nil {
		t.Errorf("the vote: %v", got)
	}
}
