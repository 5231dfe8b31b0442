package table

import (
	"bivouac/game"
	"fmt"
)

// Step is one point in a replayed game: the view of the chosen seat after
// Index actions, and the events of that action its audience let the seat see.
type Step struct {
	Index  int
	Seat   game.Seat // who acted (System for a timer; -1 before the first action)
	View   game.View
	Events []game.Event
}

// ReplayEach rebuilds a game from its setup, seed and log, calling fn with
// the state and events after New (index 0, seat -1) and after each action.
// It is the one replay loop: restarts, history and tests all go through it,
// so none of them can disagree with the others.
func ReplayEach(g game.Game, setup game.Setup, seed uint64, entries [][]byte, fn func(index int, seat game.Seat, s game.State, events []game.Event)) (game.State, error) {
	st, events, err := g.New(setup, seed)
	if err != nil {
		return nil, err
	}
	fn(0, -1, st, events)
	for i, e := range entries {
		who, ab, err := DecodeEntry(e)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		a, err := g.DecodeAction(ab)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		if st, events, err = g.Apply(st, who, a); err != nil {
			return nil, fmt.Errorf("entry %d does not replay: %w", i+1, err)
		}
		fn(i+1, who, st, events)
	}
	return st, nil
}

// Replay returns the view of seat (Spectator for the public view) before
// the first action and after each one: how history is shown.
func Replay(g game.Game, setup game.Setup, seed uint64, entries [][]byte, seat game.Seat) ([]Step, error) {
	var steps []Step
	_, err := ReplayEach(g, setup, seed, entries, func(i int, who game.Seat, s game.State, events []game.Event) {
		steps = append(steps, Step{Index: i, Seat: who, View: g.View(s, seat), Events: visible(events, seat)})
	})
	return steps, err
}

func visible(events []game.Event, seat game.Seat) []game.Event {
	var out []game.Event
	for _, e := range events {
		if e.Audience.Includes(seat) {
			out = append(out, e)
		}
	}
	return out
}
