package grizzled

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

var testNames = []string{"Anna", "Ben", "Chloé", "Dmitri", "Ewa"}

func newTestGame(t testing.TB, humans int, o Options, seed uint64) *State {
	t.Helper()
	s, _, err := NewGame(testNames[:humans], o, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type logged struct {
	seat game.Seat
	act  Action
}

// randomGame plays one game with a uniformly random legal policy and calls
// check after every action. It returns the final state and the action log.
func randomGame(t testing.TB, humans int, o Options, seed uint64, loud bool, check func(*State)) (*State, []logged) {
	t.Helper()
	s := newTestGame(t, humans, o, seed)
	r := rand.New(rand.NewPCG(seed, 7))
	var log []logged
	var buf []Action
	for steps := 0; ; steps++ {
		if steps > 5000 {
			t.Fatalf("seed %d: game did not end after 5000 actions", seed)
		}
		if _, over := s.Over(); over {
			return s, log
		}
		w := s.Waiting()
		if len(w) == 0 {
			t.Fatalf("seed %d: nobody to wait on in phase %d", seed, s.phase)
		}
		seat := w[r.IntN(len(w))]
		var a Action
		if s.phase == PhaseSpeech && r.IntN(20) == 0 {
			seat, a = game.System, Action{Kind: ActTimeout}
		} else {
			buf = s.AppendLegal(buf[:0], seat)
			if len(buf) == 0 {
				t.Fatalf("seed %d: seat %d waited on but has no legal action (phase %d)", seed, seat, s.phase)
			}
			a = buf[r.IntN(len(buf))]
		}
		var err error
		if loud {
			_, err = s.Apply(seat, a)
		} else {
			err = s.Step(seat, a)
		}
		if err != nil {
			t.Fatalf("seed %d: legal action %+v by seat %d refused: %v", seed, a, seat, err)
		}
		log = append(log, logged{seat, a})
		if check != nil {
			check(s)
		}
	}
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	wins := 0
	for i := range games {
		humans := 2 + i%4
		o := Options{Variant: []Variant{Standard, Beginner, Veteran}[i%3], Leader: game.NoSeat}
		s, _ := randomGame(t, humans, o, uint64(i), i%5 == 0, func(s *State) {
			if err := s.Check(); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		})
		won, over := s.Over()
		if !over {
			t.Fatalf("game %d not over", i)
		}
		if won {
			wins++
		}
	}
	t.Logf("%d of %d random games won", wins, games)
}

func TestReplayReproducesState(t *testing.T) {
	for i := range 40 {
		humans := 2 + i%4
		o := Options{Variant: Standard, Leader: game.NoSeat}
		s, log := randomGame(t, humans, o, uint64(1000+i), true, nil)
		r := newTestGame(t, humans, o, uint64(1000+i))
		for _, l := range log {
			if _, err := r.Apply(l.seat, l.act); err != nil {
				t.Fatal(err)
			}
		}
		a, _ := EncodeState(s)
		b, _ := EncodeState(r)
		if !bytes.Equal(a, b) {
			t.Fatalf("game %d: replay differs", i)
		}
		if !reflect.DeepEqual(s, r) {
			t.Fatalf("game %d: replay not deep-equal", i)
		}
	}
}

// TestCase50_ViewLeaks: no seat's view holds another seat's hand cards,
// tiles or placed tiles, and no view holds the pile order (§7).
func TestCase50_ViewLeaks(t *testing.T) {
	for i := range 60 {
		humans := 2 + i%4
		randomGame(t, humans, Options{Variant: Standard, Leader: game.NoSeat}, uint64(5000+i), false, func(s *State) {
			for seat := -1; seat < len(s.players); seat++ {
				v := s.View(game.Seat(seat))
				checkNoLeak(t, s, game.Seat(seat), v)
			}
		})
	}
}

func checkNoLeak(t *testing.T, s *State, seat game.Seat, v SeatView) {
	t.Helper()
	me := int(seat)
	// Own hidden things only.
	if me < 0 || me >= len(s.players) || s.players[me].Chaplain {
		if v.Hand != nil || v.MyTiles != nil || v.PlacedTile != NoTile || v.Legal != nil {
			t.Fatalf("non-player view %d has private fields", seat)
		}
	} else {
		if !slices.Equal(v.Hand, s.players[me].Hand) {
			t.Fatalf("seat %d sees a hand that is not its own", seat)
		}
		if v.PlacedTile != NoTile && (s.players[me].Hidden || v.PlacedTile != s.players[me].Placed) {
			t.Fatalf("seat %d sees a hidden placed tile", seat)
		}
	}
	// Public card lists must never contain a hand card or a pile card.
	hidden := map[CardID]bool{}
	for i := range s.players {
		if i != me {
			for _, c := range s.players[i].Hand {
				hidden[c] = true
			}
		}
	}
	for _, c := range s.trials {
		hidden[c] = true
	}
	for _, c := range s.morale {
		hidden[c] = true
	}
	pub := slices.Concat(v.NML, v.Removed, v.Hand)
	for _, p := range v.Players {
		pub = append(pub, p.HardKnocks...)
	}
	for _, a := range v.Legal {
		pub = append(pub, a.Card)
		pub = append(pub, a.Cards...)
	}
	for _, c := range pub {
		if hidden[c] {
			t.Fatalf("view of seat %d shows hidden card %s", seat, c)
		}
	}
	// Nothing in the JSON of the view names tile identities except own tiles and the last reveal.
	if len(v.MyTiles) > 0 && me >= 0 && !slices.Equal(v.MyTiles, slices.Sorted(slices.Values(s.players[me].Tiles))) {
		t.Fatalf("seat %d sees tiles that are not its own", seat)
	}
}

// The tile menu (and a player's own tiles on screen) keep one order, L, R,
// DL, DR, however the tiles came to the player.
func TestTileChoicesKeepOneOrder(t *testing.T) {
	choices := 0
	for i := range 40 {
		randomGame(t, 4+i%2, Options{Variant: Standard, Leader: game.NoSeat}, uint64(9000+i), false, func(s *State) {
			if s.phase != PhaseDecision || (s.decision != DecidePlaceTile && s.decision != DecideRemoveTile) {
				return
			}
			var last Tile
			for _, a := range s.Legal(game.Seat(s.decider)) {
				if a.Tile <= last {
					t.Fatalf("tile choices out of order: %v", s.Legal(game.Seat(s.decider)))
				}
				last = a.Tile
				choices++
			}
			v := s.View(game.Seat(s.decider))
			if !slices.IsSorted(v.MyTiles) {
				t.Fatalf("own tiles shown out of order: %v", v.MyTiles)
			}
		})
	}
	if choices == 0 {
		t.Fatal("no tile choice came up in 40 games")
	}
}

// At a correspondence table's deadline, stand-ins answer a speech for the
// seats that have not (game.Overdue); no other decision is a timed step's.
func TestOverdueIsASpeechsUnansweredSeats(t *testing.T) {
	speeches := 0
	for seed := uint64(1); seed <= 20; seed++ {
		randomGame(t, 3, Options{Variant: Standard, Leader: game.NoSeat}, seed, false, func(s *State) {
			got := Game{}.Overdue(s)
			switch {
			case s.phase == PhaseSpeech:
				speeches++
				if !slices.Equal(got, s.Waiting()) {
					t.Fatalf("seed %d: overdue %v, waiting %v", seed, got, s.Waiting())
				}
			case got != nil:
				t.Fatalf("seed %d: overdue %v in phase %d", seed, got, s.phase)
			}
		})
	}
	if speeches == 0 {
		t.Fatal("no speech in 20 games")
	}
}
