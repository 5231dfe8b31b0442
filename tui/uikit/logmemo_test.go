package uikit

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// logFrame draws events as a screen's log does and says which were drawn
// afresh (by their index).
func logFrame(m *LogMemo, th *Theme, w int, events []game.Event, who func(game.Event) string) (lines []string, drawn []int) {
	m.Begin(th, w)
	for i := range events {
		e := &events[i]
		lines = append(lines, m.Lines(e, who(*e), func() []string {
			drawn = append(drawn, i)
			return []string{th.Msg(e.Msg) + "|" + e.Text + "|" + who(*e)}
		})...)
	}
	return lines, drawn
}

func TestLogMemoDrawsOnlyWhatChanged(t *testing.T) {
	th := New(nil)
	ev := func(n int) game.Event {
		return game.Event{Audience: game.Everyone(), Kind: game.Narration, From: game.NoSeat, Msg: game.M("ui.n_players", game.Count(n))}
	}
	chat := func(text string) game.Event {
		return game.Event{Audience: game.Everyone(), Kind: game.Chat, From: 1, Channel: "table", Text: text}
	}
	noName := func(game.Event) string { return "" }
	var m LogMemo
	log := []game.Event{ev(1), ev(2), chat("hi"), ev(3)}
	if _, drawn := logFrame(&m, th, 80, log, noName); !slices.Equal(drawn, []int{0, 1, 2, 3}) {
		t.Fatalf("first frame drew %v, want every event", drawn)
	}
	// The next Update's log: the oldest event gone, two new ones; a fresh
	// copy, as every Update carries.
	next := slices.Clone(append(log[1:], ev(4), ev(2)))
	lines, drawn := logFrame(&m, th, 80, next, noName)
	if !slices.Equal(drawn, []int{3, 4}) {
		t.Errorf("second frame drew %v, want only the two new events [3 4]", drawn)
	}
	want := []string{th.Msg(ev(2).Msg) + "||", "|hi|", th.Msg(ev(3).Msg) + "||", th.Msg(ev(4).Msg) + "||", th.Msg(ev(2).Msg) + "||"}
	if !slices.Equal(lines, want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
	// Same events, nothing to draw.
	if _, drawn := logFrame(&m, th, 80, next, noName); len(drawn) != 0 {
		t.Errorf("an unchanged log drew %v", drawn)
	}
	// An event that says something else is drawn again, even where an old one stood.
	changed := slices.Clone(next)
	changed[1] = chat("hello")
	if _, drawn := logFrame(&m, th, 80, changed, noName); !slices.Equal(drawn, []int{1}) {
		t.Errorf("a changed chat line: drew %v, want [1]", drawn)
	}
	// The speaker's name as shown is part of the line.
	renamed := func(e game.Event) string {
		if e.Kind == game.Chat {
			return "Bob"
		}
		return ""
	}
	if _, drawn := logFrame(&m, th, 80, changed, renamed); !slices.Equal(drawn, []int{1}) {
		t.Errorf("a renamed speaker: drew %v, want [1]", drawn)
	}
	// Another width or language: everything again.
	if _, drawn := logFrame(&m, th, 100, changed, renamed); len(drawn) != len(changed) {
		t.Errorf("a new width drew %v, want all %d", drawn, len(changed))
	}
	th.SetLang(i18n.German)
	lines, drawn = logFrame(&m, th, 100, changed, renamed)
	if len(drawn) != len(changed) {
		t.Errorf("a new language drew %v, want all %d", drawn, len(changed))
	}
	if de := th.Msg(ev(2).Msg) + "||"; lines[0] != de {
		t.Errorf("after the language changed: %q, want %q", lines[0], de)
	}
}
