package pebbles

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

func newGame(t *testing.T, heap, players int) *State {
	t.Helper()
	opts, _ := json.Marshal(Options{Heap: heap})
	s, evs, err := Game{}.New(game.Setup{Game: ID, Names: []string{"Ada", "Bo", "Cyd", "Dee"}[:players], Options: opts}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Msg.Key != "pebbles.heap" {
		t.Fatalf("the deal says %v", evs)
	}
	return s.(*State)
}

// §2: two to four players, a heap of 7, 11 or 15; anything else is refused.
func TestSetup(t *testing.T) {
	if s := newGame(t, 11, 3); s.Heap != 11 || s.Turn != 0 || s.Winner != game.NoSeat {
		t.Fatalf("%+v", s)
	}
	for _, setup := range []game.Setup{
		{Names: []string{"Ada"}},
		{Names: []string{"A", "B", "C", "D", "E"}},
		{Names: []string{"A", "B"}, Options: []byte(`{"heap":8}`)},
		{Names: []string{"A", "B"}, Options: []byte(`{`)},
	} {
		if _, _, err := (Game{}).New(setup, 1); err == nil {
			t.Errorf("%+v was accepted", setup)
		}
	}
}

// §3: one or two pebbles, never more than the heap, in turn.
func TestATurn(t *testing.T) {
	g := Game{}
	s := newGame(t, 7, 2)
	if _, _, err := g.Apply(s, 1, Take(1)); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("out of turn: %v", err)
	}
	for _, n := range []Take{0, 3} {
		if _, _, err := g.Apply(s, 0, n); !errors.Is(err, ErrTake) {
			t.Errorf("take %d: %v", n, err)
		}
	}
	st, evs, err := g.Apply(s, 0, Take(2))
	if err != nil || st.(*State).Heap != 5 || st.(*State).Turn != 1 || len(evs) != 2 {
		t.Fatalf("take 2: %+v %v %v", st, evs, err)
	}
	s = st.(*State)
	s.Heap = 1
	if legal := g.Legal(s, 1); len(legal) != 1 || legal[0] != Take(1) {
		t.Errorf("with one pebble left: %v", legal)
	}
}

// §4: the last pebble wins at once.
func TestTheLastPebbleWins(t *testing.T) {
	g := Game{}
	s := newGame(t, 7, 3)
	s.Heap, s.Turn = 2, 2
	st, evs, err := g.Apply(s, 2, Take(2))
	if err != nil {
		t.Fatal(err)
	}
	r, over := g.Result(st)
	if !over || len(r.Winners) != 1 || r.Winners[0] != 2 || evs[len(evs)-1].Msg.Key != "pebbles.won" {
		t.Fatalf("result %+v over %v, events %v", r, over, evs)
	}
	if _, _, err := g.Apply(st, 0, Take(1)); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("a move after the end: %v", err)
	}
}

// §5: the strong bot wins every two-player game from a heap that is not
// a multiple of three, against any opponent.
func TestTheStrongBotKnowsTheTrick(t *testing.T) {
	g := Game{}
	strong, _ := Bots{}.New(Strong)
	easy, _ := Bots{}.New(Easy)
	for seed := range uint64(50) {
		st := game.State(newGame(t, 7, 2))
		for {
			s := st.(*State)
			b := easy
			if s.Turn == 0 {
				b = strong
			}
			a, ok := b.Act(g.View(s, s.Turn), seed+uint64(s.Heap))
			if !ok {
				t.Fatal("a bot had no move on its turn")
			}
			var err error
			if st, _, err = g.Apply(s, s.Turn, a); err != nil {
				t.Fatal(err)
			}
			if r, over := g.Result(st); over {
				if r.Winners[0] != 0 {
					t.Fatalf("seed %d: the strong bot lost from 7", seed)
				}
				break
			}
		}
	}
}
