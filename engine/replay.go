package engine

import "fmt"

// Step is one point in a replayed game: the view of the chosen seat after
// Index actions, and the events of that action its audience let the seat see.
type Step struct {
	Index  int
	Seat   Seat // who acted (System for a timer)
	View   View
	Events []Event
}

// Replay rebuilds a finished (or unfinished) game from its setup, seed and
// log, returning the view of seat (Spectator for the public view) before the
// first action and after each one. It is how history is shown: the same
// code path as a restart, so a replay can't disagree with the game.
func Replay(g Game, setup Setup, seed uint64, entries [][]byte, seat Seat) ([]Step, error) {
	st, events, err := g.New(setup, seed)
	if err != nil {
		return nil, err
	}
	steps := []Step{{Index: 0, Seat: -1, View: g.View(st, seat), Events: visible(events, seat)}}
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
		steps = append(steps, Step{Index: i + 1, Seat: who, View: g.View(st, seat), Events: visible(events, seat)})
	}
	return steps, nil
}

func visible(events []Event, seat Seat) []Event {
	var out []Event
	for _, e := range events {
		if e.Audience.Includes(seat) {
			out = append(out, e)
		}
	}
	return out
}
