// Package pebbles is the rules of Pebbles, Bivouac's tutorial game
// (RULES.md): a heap of pebbles, players taking one or two in turn, and
// whoever takes the last one wins. It is the smallest real game the
// server offers, kept as the worked example of docs/ADDING-A-GAME.md: a
// game.Game (and game.ViewCodec), pure like every game's rules, whose
// words are catalog messages (games/pebbles/catalog).
package pebbles

import (
	"encoding/json"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// ID is the game's identifier, stored in every table's setup.
const ID = "pebbles"

// Heaps a table may start with (§2): the form offers them.
var Heaps = []int{7, 11, 15}

// MaxTake is the most pebbles one may take at once (§3).
const MaxTake = 2

// Options are a table's options: the heap's size (0: the first of Heaps).
type Options struct {
	Heap int `json:"heap,omitempty"`
}

// State is the whole game. Nothing is hidden, so it is every seat's view
// too (View copies it).
type State struct {
	Names  []string  `json:"names"`
	Heap   int       `json:"heap"`
	Turn   game.Seat `json:"turn"`
	Winner game.Seat `json:"winner"` // game.NoSeat until someone takes the last pebble
}

// Take is the one action: take N pebbles from the heap.
type Take int

// Game is Pebbles as game.Game.
type Game struct{}

var (
	_ game.Game      = Game{}
	_ game.ViewCodec = Game{}
)

func (Game) ID() string    { return ID }
func (Game) Title() string { return "Pebbles" }

// New deals the heap (§2): two players or more, the heap the options say.
func (Game) New(setup game.Setup, _ uint64) (game.State, []game.Event, error) {
	var o Options
	if len(setup.Options) > 0 {
		if err := json.Unmarshal(setup.Options, &o); err != nil {
			return nil, nil, game.ErrBadAction
		}
	}
	if o.Heap == 0 {
		o.Heap = Heaps[0]
	}
	if len(setup.Names) < 2 || len(setup.Names) > 4 || !slices.Contains(Heaps, o.Heap) {
		return nil, nil, game.ErrBadAction
	}
	s := &State{Names: slices.Clone(setup.Names), Heap: o.Heap, Winner: game.NoSeat}
	return s, []game.Event{says(game.M("pebbles.heap", game.Count(s.Heap)))}, nil
}

// says is an event everyone sees.
func says(m game.Msg) game.Event {
	return game.Event{Audience: game.Everyone(), Kind: game.Narration, From: game.NoSeat, Msg: m}
}

// Apply takes pebbles for the seat whose turn it is (§3); the last one
// wins (§4).
func (Game) Apply(st game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	s := st.(*State)
	switch {
	case s.Winner != game.NoSeat:
		return s, nil, game.ErrGameOver
	case seat != s.Turn:
		return s, nil, game.ErrNotYourTurn
	}
	n, ok := a.(Take)
	if !ok || n < 1 || int(n) > min(MaxTake, s.Heap) {
		return s, nil, ErrTake
	}
	s.Heap -= int(n)
	player := game.Text("Player", s.Names[seat])
	evs := []game.Event{says(game.M("pebbles.took", player, game.Count(int(n))))}
	if s.Heap == 0 {
		s.Winner = seat
		return s, append(evs, says(game.M("pebbles.won", player))), nil
	}
	s.Turn = (s.Turn + 1) % game.Seat(len(s.Names))
	return s, append(evs, says(game.M("pebbles.left", game.Count(s.Heap)))), nil
}

// ErrTake refuses taking none, more than MaxTake, or more than the heap.
var ErrTake = game.NewError("pebbles.err.take")

func (Game) Clone(st game.State) game.State {
	c := *st.(*State)
	c.Names = slices.Clone(c.Names)
	return &c
}

// Legal is one or two pebbles, never more than the heap (§3).
func (Game) Legal(st game.State, seat game.Seat) []game.Action {
	s := st.(*State)
	if s.Winner != game.NoSeat || seat != s.Turn {
		return nil
	}
	var out []game.Action
	for n := 1; n <= min(MaxTake, s.Heap); n++ {
		out = append(out, Take(n))
	}
	return out
}

func (Game) Waiting(st game.State) []game.Seat {
	if s := st.(*State); s.Winner == game.NoSeat {
		return []game.Seat{s.Turn}
	}
	return nil
}

// View is the whole state: nothing in Pebbles is hidden.
func (g Game) View(st game.State, _ game.Seat) game.View { return *g.Clone(st).(*State) }

// Timer: Pebbles waits for its players as long as they like.
func (Game) Timer(game.State) (game.Timer, bool) { return game.Timer{}, false }

// Say is table talk, for everyone at the table.
func (Game) Say(_ game.State, seat game.Seat, text string) ([]game.Event, error) {
	if seat < 0 || text == "" || len([]rune(text)) > game.MaxChat {
		return nil, game.ErrBadAction
	}
	return []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: text}}, nil
}

// Result: whoever took the last pebble won (§4).
func (Game) Result(st game.State) (game.Result, bool) {
	s := st.(*State)
	if s.Winner == game.NoSeat {
		return game.Result{}, false
	}
	return game.Result{Outcome: "win", Winners: []game.Seat{s.Winner},
		Summary: game.M("pebbles.summary", game.Text("Player", s.Names[s.Winner]))}, true
}

func (Game) EncodeAction(a game.Action) ([]byte, error) {
	n, ok := a.(Take)
	if !ok || n < 1 || n > MaxTake {
		return nil, game.ErrBadAction
	}
	return []byte{byte(n)}, nil
}

func (Game) DecodeAction(b []byte) (game.Action, error) {
	if len(b) != 1 || b[0] < 1 || b[0] > MaxTake {
		return nil, game.ErrBadAction
	}
	return Take(b[0]), nil
}

func (Game) EncodeView(v game.View) ([]byte, error) { return game.EncodeJSONView[State](ID, v) }
func (Game) DecodeView(b []byte) (game.View, error) { return game.DecodeJSONView[State](ID, b) }
