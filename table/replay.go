package table

import (
	"errors"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
)

// Step is one point in a replayed game: the view of the chosen seat after
// Index actions, and the events of that action its audience let the seat see.
type Step struct {
	Index  int
	Seat   game.Seat // who acted (System for a timer; NoSeat before the first action)
	View   game.View
	Events []game.Event
}

// ReplayEach rebuilds a game from its setup, seed and log, calling fn with
// the state and events after New (index 0, seat NoSeat) and after each
// action (index: actions applied so far). A chat line in the log calls fn
// again with the same index and the line's events: who heard it is the
// game's to say, from the state it was said in, as it was live. Lines said
// before the game began come with New's call, first. It is the one replay
// loop: restarts, history and tests all go through it, so none of them can
// disagree with the others.
func ReplayEach(g game.Game, setup game.Setup, seed uint64, entries [][]byte, fn func(index int, seat game.Seat, s game.State, events []game.Event)) (game.State, error) {
	before, entries, err := chatBeforeStart(entries)
	if err != nil {
		return nil, err
	}
	st, events, err := g.New(setup, seed)
	if err != nil {
		return nil, err
	}
	fn(0, game.NoSeat, st, append(before, events...))
	applied := 0
	for i, b := range entries {
		e, err := DecodeEntry(b)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		if e.IsChat() {
			if events, err = chatEvents(g, st, e); err != nil {
				return nil, fmt.Errorf("entry %d: chat does not replay: %w", i+1, err)
			}
			fn(applied, e.Seat, st, events)
			continue
		}
		a, err := g.DecodeAction(e.Action)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		if st, events, err = g.Apply(st, e.Seat, a); err != nil {
			return nil, fmt.Errorf("entry %d does not replay: %w", i+1, err)
		}
		if e.Late && e.Seat >= 0 {
			// Who decided and why, to the seat's own player only, as the
			// table told them (decidedLate): their deadline passed.
			events = append([]game.Event{{Audience: game.Only(e.Seat), Kind: game.Narration, From: game.NoSeat,
				Msg: game.M("table.deadline.decided_once")}}, events...)
		}
		applied++
		fn(applied, e.Seat, st, events)
	}
	return st, nil
}

// chatBeforeStart splits off the lines said at the table before its game
// began (they lead the log) as the events everyone saw.
func chatBeforeStart(entries [][]byte) ([]game.Event, [][]byte, error) {
	var events []game.Event
	for len(entries) > 0 {
		e, err := DecodeEntry(entries[0])
		if err != nil {
			return nil, nil, fmt.Errorf("entry %d: %w", len(events)+1, err)
		}
		if !e.IsChat() || !e.Before {
			break
		}
		events = append(events, tableTalk(e.Seat, e.Chat))
		entries = entries[1:]
	}
	return events, entries, nil
}

// chatEvents is what a logged chat line told whom.
func chatEvents(g game.Game, st game.State, e Entry) ([]game.Event, error) {
	if e.Before {
		return []game.Event{tableTalk(e.Seat, e.Chat)}, nil
	}
	if !e.Line.IsZero() {
		bc, ok := g.(game.BotChat)
		if !ok {
			return nil, errors.New("a bot's line in a game whose bots do not talk")
		}
		_, events, err := bc.BotLine(st, e.Seat, e.Line)
		return events, err
	}
	return g.Say(st, e.Seat, e.Chat)
}

// tableTalk is a line said at the table before its game began.
func tableTalk(seat game.Seat, text string) game.Event {
	return game.Event{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: text}
}

// Replay returns the view of seat (Spectator for the public view) before
// the first action and after each one, with the events (chat included)
// that seat saw at each step: how history is shown.
func Replay(g game.Game, setup game.Setup, seed uint64, entries [][]byte, seat game.Seat) ([]Step, error) {
	var steps []Step
	_, err := ReplayEach(g, setup, seed, entries, func(i int, who game.Seat, s game.State, events []game.Event) {
		if n := len(steps); n > 0 && steps[n-1].Index == i {
			steps[n-1].Events = append(steps[n-1].Events, visible(events, seat)...)
			return
		}
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
