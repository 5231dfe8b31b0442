package werewolf

import (
	"math/rand/v2"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// randomGame plays a game where waiting seats pick uniformly among their
// legal actions (sometimes idling), and the timer fires when nobody acts.
// It checks invariants after every step and returns the final state and the
// log of (seat, action).
type logEntry struct {
	Seat   game.Seat
	Action Action
}

func randomGame(t testing.TB, names []string, opts Options, seed uint64, check func(s *State, evs []game.Event)) (*State, []logEntry) {
	t.Helper()
	g := Game{}
	st, evs, err := NewState(names, opts, seed)
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	if check != nil {
		check(st, evs)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	var log []logEntry
	for step := 0; step < 5000; step++ {
		if st.Over {
			return st, log
		}
		var acted bool
		for _, seat := range st.Waiting() {
			legal := st.Legal(int(seat))
			if len(legal) == 0 || r.IntN(6) == 0 {
				continue
			}
			a := legal[r.IntN(len(legal))]
			next, evs, err := g.Apply(st, seat, a)
			if err != nil {
				t.Fatalf("seed %d: legal action %v by %d refused: %v (phase %v)", seed, a, seat, err, st.Phase)
			}
			st = next.(*State)
			log = append(log, logEntry{seat, a})
			acted = true
			if check != nil {
				check(st, evs)
			}
			break
		}
		if !acted {
			tm, ok := st.Timer()
			if !ok {
				t.Fatalf("no timer while running")
			}
			next, evs, err := g.Apply(st, game.System, tm.Action)
			if err != nil {
				t.Fatalf("tick: %v", err)
			}
			st = next.(*State)
			log = append(log, logEntry{game.System, tm.Action.(Action)})
			if check != nil {
				check(st, evs)
			}
		}
	}
	t.Fatalf("seed %d: game did not end", seed)
	return nil, nil
}

func namesN(n int) []string {
	v := make([]string, n)
	for i := range v {
		v[i] = "P" + string(rune('A'+i))
	}
	return v
}

func TestScenario58_RandomGamesEndAndLeakNothing(t *testing.T) {
	seeds := uint64(16)
	if raceEnabled || testing.Short() {
		seeds = 4
	}
	for n := 5; n <= 18; n++ {
		for seed := range seeds {
			opts := ClassicOptions()
			if n < 8 {
				opts = DefaultOptions()
				opts.SmallTable = true
			}
			if seed%2 == 1 {
				opts.NightTiming = TimingFast
			}
			check := func(s *State, evs []game.Event) {
				if err := invariants(s); err != nil {
					t.Fatalf("n=%d seed %d phase %v: %v", n, seed, s.Phase, err)
				}
				if err := audiences(s, evs); err != nil {
					t.Fatalf("n=%d seed %d: %v", n, seed, err)
				}
			}
			if seed%4 != 0 {
				check = nil
			}
			st, _ := randomGame(t, namesN(n), opts, seed, check)
			if !st.Over {
				t.Fatal("not over")
			}
		}
	}
}
