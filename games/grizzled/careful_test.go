package grizzled

import (
	"math/rand/v2"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// careful is a simple policy that wins now and then, so that the property
// tests also walk through victories: lowest intensity, a play only if it
// does not fail the mission, otherwise withdraw; discard in speeches and
// take every benefit.
func careful(s *State, seat game.Seat, r *rand.Rand, buf []Action) Action {
	l := s.AppendLegal(buf[:0], seat)
	switch s.phase {
	case PhaseIntensity:
		return l[min(len(l)-1, r.IntN(2))]
	case PhaseTurn:
		var safe []Action
		for _, a := range l {
			if (a.Kind != ActPlay && a.Kind != ActCharm) || a.Card.IsHardKnock() {
				continue
			}
			c := s.Clone()
			if err := c.Step(seat, a); err == nil && !c.failed && (c.last == nil || c.last.Round != s.round || c.last.Success) {
				safe = append(safe, a)
			}
		}
		for _, a := range l {
			if a.Kind == ActCharm {
				for _, b := range safe {
					if b.Kind == ActCharm {
						return b
					}
				}
			}
		}
		if len(safe) > 0 {
			return safe[r.IntN(len(safe))]
		}
		for _, a := range l { // take a hard knock while it is bearable
			if a.Kind == ActPlay && a.Card.IsHardKnock() && a.Card > TraumaRain && s.players[seat].weight()+a.Card.Weight() <= 3 {
				return a
			}
		}
		if l[len(l)-1].Kind == ActWithdraw {
			return l[len(l)-1]
		}
	case PhaseSpeech, PhaseBenefit:
		return l[0]
	}
	return l[r.IntN(len(l))]
}

func TestCarefulGamesWinSometimes(t *testing.T) {
	wins, games := 0, 120
	reasons := map[string]int{}
	if testing.Short() {
		games = 50
	}
	for i := range games {
		humans := 2 + i%4
		// Short piles (a house campaign value) so that careful play wins often.
		o := Options{Variant: []Variant{Beginner, Standard}[i%2], Leader: game.NoSeat, StartingTrials: 4 + i%10}
		s := newTestGame(t, humans, o, uint64(7000+i))
		r := rand.New(rand.NewPCG(uint64(i), 9))
		var buf []Action
		for n := 0; ; n++ {
			if n > 3000 {
				t.Fatal("game too long")
			}
			if _, over := s.Over(); over {
				break
			}
			w := s.Waiting()
			seat := w[r.IntN(len(w))]
			a := careful(s, seat, r, buf)
			if _, err := s.Apply(seat, a); err != nil {
				t.Fatalf("%s: %v", a.String(), err)
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			for v := -1; n%2 == 0 && v < len(s.players); v++ {
				checkNoLeak(t, s, game.Seat(v), s.View(game.Seat(v)))
			}
		}
		if won, _ := s.Over(); won {
			wins++
		} else {
			reasons[string(s.loss)]++
		}
	}
	t.Logf("careful policy: %d of %d games won; losses: %v", wins, games, reasons)
	if wins == 0 {
		t.Fatal("no game won: the victory path is never walked")
	}
}
