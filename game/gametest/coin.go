package gametest

import (
	"encoding/json"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
)

// Coin is a minimal game for tests that drive sessions and tables: seats
// take turns flipping; the third flip ends it. Its events speak English to
// developers, as this package does. It is only as much of a game as a
// single-node session needs (no ViewCodec: it never crosses a cluster).
type Coin struct{}

// CoinState is the coin's state, and every seat's view of it.
type CoinState struct{ Flips, Seats int }

func (Coin) ID() string    { return "coin" }
func (Coin) Title() string { return "Coin" }
func (Coin) New(s game.Setup, _ uint64) (game.State, []game.Event, error) {
	return &CoinState{Seats: len(s.Names)}, nil, nil
}
func (Coin) Apply(s game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	st := s.(*CoinState)
	if int(seat) != st.Flips%st.Seats {
		return s, nil, game.ErrNotYourTurn
	}
	st.Flips++
	return st, []game.Event{{Audience: game.Everyone(), Text: fmt.Sprintf("flip %d", st.Flips)}}, nil
}
func (Coin) Clone(s game.State) game.State { c := *s.(*CoinState); return &c }
func (Coin) Legal(s game.State, seat game.Seat) []game.Action {
	st := s.(*CoinState)
	if st.Flips < 3 && int(seat) == st.Flips%st.Seats {
		return []game.Action{"flip"}
	}
	return nil
}
func (Coin) Waiting(s game.State) []game.Seat {
	st := s.(*CoinState)
	if st.Flips >= 3 {
		return nil
	}
	return []game.Seat{game.Seat(st.Flips % st.Seats)}
}
func (Coin) View(s game.State, _ game.Seat) game.View { return *s.(*CoinState) }
func (Coin) Timer(game.State) (game.Timer, bool)      { return game.Timer{}, false }
func (Coin) Say(_ game.State, seat game.Seat, text string) ([]game.Event, error) {
	return []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Text: text}}, nil
}
func (Coin) Result(s game.State) (game.Result, bool) {
	if s.(*CoinState).Flips >= 3 {
		return game.Result{Outcome: "win", Summary: game.Raw("flipped")}, true
	}
	return game.Result{}, false
}
func (Coin) EncodeAction(a game.Action) ([]byte, error) { return json.Marshal(a) }
func (Coin) DecodeAction(b []byte) (game.Action, error) {
	var s string
	return s, json.Unmarshal(b, &s)
}
