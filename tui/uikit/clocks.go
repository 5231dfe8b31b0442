package uikit

import (
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// Clock is how a table whose decisions are timed one by one keeps time:
// live, with a turn clock (or none), or by correspondence, with a deadline
// per decision (table.Pace).
type Clock struct {
	Name string        // catalog key
	Word string        // what plain mode and ssh commands type: 90s, 3m, off, 1h, 12h, 1d, 3d
	Turn time.Duration // live: the turn clock (0: none)
	Pace table.Pace
}

// Clocks are the clocks a form or a campaign offers, live ones first.
var Clocks = []Clock{
	{Name: "form.clock_90s", Word: "90s", Turn: 90 * time.Second},
	{Name: "form.clock_3m", Word: "3m", Turn: 3 * time.Minute},
	{Name: "form.pace_live", Word: "off"},
	{Name: "form.pace_hour", Word: "1h", Pace: table.Pace{Correspondence: true, Decision: time.Hour}},
	{Name: "form.pace_half_day", Word: "12h", Pace: table.Pace{Correspondence: true, Decision: 12 * time.Hour}},
	{Name: "form.pace_day", Word: "1d", Pace: table.Pace{Correspondence: true, Decision: 24 * time.Hour}},
	{Name: "form.pace_three_days", Word: "3d", Pace: table.Pace{Correspondence: true, Decision: 72 * time.Hour}},
}

// ClockOf is the offered clock with turn and pace (false: none is).
func ClockOf(turn time.Duration, pace table.Pace) (Clock, bool) {
	for _, c := range Clocks {
		if c.Turn == turn && c.Pace == pace {
			return c, true
		}
	}
	return Clock{}, false
}

// ClockByWord is the offered clock a player typed.
func ClockByWord(w string) (Clock, bool) {
	for _, c := range Clocks {
		if c.Word == w {
			return c, true
		}
	}
	return Clock{}, false
}

// ClockChoices are Clocks' names, for a form's field.
func ClockChoices() []game.Msg {
	out := make([]game.Msg, len(Clocks))
	for i, c := range Clocks {
		out[i] = game.M(c.Name)
	}
	return out
}

// Left says a time left before a deadline: days from two days on, hours
// from two hours on, else minutes (at least one), rounded down.
func Left(d time.Duration) game.Msg {
	switch {
	case d >= 48*time.Hour:
		return game.M("ui.left.days", game.Count(int(d/(24*time.Hour))))
	case d >= 2*time.Hour:
		return game.M("ui.left.hours", game.Count(int(d/time.Hour)))
	}
	return game.M("ui.left.minutes", game.Count(max(int(d/time.Minute), 1)))
}

// YourMoves are the tables of rooms waiting on player me (correspondence
// tables under way: a live one leaves Waiting empty), soonest deadline
// first, those without one last.
func YourMoves(rooms []table.Summary, me string) []table.Summary {
	var out []table.Summary
	for _, r := range rooms {
		if len(r.Waiting) > 0 && r.Status == table.StatusPlaying && slices.Contains(r.Waiting, me) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b table.Summary) int {
		switch {
		case a.Deadline.IsZero() != b.Deadline.IsZero():
			if a.Deadline.IsZero() {
				return 1
			}
			return -1
		}
		return a.Deadline.Compare(b.Deadline)
	})
	return out
}

// YourMove is the line that says it is the player's move at r.
func YourMove(r table.Summary, now time.Time) game.Msg {
	if r.Deadline.IsZero() {
		return game.M("ui.lobby.your_move", game.Text("Code", r.Code), game.Sub("Title", r.Title))
	}
	return game.M("ui.lobby.your_move_left", game.Text("Code", r.Code), game.Sub("Title", r.Title), game.Sub("Left", Left(r.Deadline.Sub(now))))
}
