package werewolfui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/games/werewolf/wolfbot"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// At 18 players the end screen is taller than 80×24: it scrolls as a page
// with ] and [, so the night log can be read (issue 18 item 22).
func TestEighteenPlayerEndScreenScrolls(t *testing.T) {
	var names []string
	for i := range 18 {
		names = append(names, fmt.Sprintf("Player%02d", i+1))
	}
	bot, err := wolfbot.NewBot("easy")
	if err != nil {
		t.Fatal(err)
	}
	g, err := wolfbot.Play(bot, names, wolfbot.SimOptions(18), 5, nil)
	if err != nil || !g.State.Over || len(g.State.View(0).History) == 0 {
		t.Fatalf("no finished game with a night log: %v", err)
	}
	var rules werewolf.Game
	res, _ := rules.Result(g.State)
	s := newScreen(table.Update{Room: "W0LF", Game: werewolf.ID, Seat: 0, View: g.State.View(0), Started: true, Over: true, Result: &res}, 80, 24)
	first := s.View()
	checkFits(t, first, 80, 24)
	if !strings.Contains(first, "GAME OVER") || !strings.Contains(first, "more lines: ]") {
		t.Fatalf("the end screen does not say it scrolls:\n%s", first)
	}
	history := g.State.View(0).History
	last := history[len(history)-1]
	for range 40 {
		s.Update(press("]"))
	}
	end := s.View()
	checkFits(t, end, 80, 24)
	if !strings.Contains(strings.Join(strings.Fields(end), " "), strings.Join(strings.Fields(i18n.For(i18n.English).Msg(last)), " ")[:30]) {
		t.Fatalf("] never reached the night log's last line %q:\n%s", last, end)
	}
	for range 40 {
		s.Update(press("["))
	}
	if s.View() != first {
		t.Fatalf("[ did not come back to the top:\n%s", s.View())
	}
}

// Plain mode's look at the end reads the night log's title, not a rule of
// dashes drawn 400 columns wide (a terminal showed it as rows of "────").
func TestPlainLookAtTheEndHasNoRule(t *testing.T) {
	names := []string{"ann", "bob", "cyd", "dan", "eve", "fay", "gus", "hal"}
	bot, err := wolfbot.NewBot("easy")
	if err != nil {
		t.Fatal(err)
	}
	g, err := wolfbot.Play(bot, names, wolfbot.SimOptions(len(names)), 5, nil)
	if err != nil || !g.State.Over || len(g.State.View(0).History) == 0 {
		t.Fatalf("no finished game with a night log: %v", err)
	}
	var rules werewolf.Game
	res, _ := rules.Result(g.State)
	s := newScreen(table.Update{Room: "W0LF", Game: werewolf.ID, Seat: 0, View: g.State.View(0), Started: true, Over: true, Result: &res}, 80, 24)
	look := s.Look()
	title := i18n.For(i18n.English).T("werewolfui.night_log")
	said := false
	for _, l := range look {
		if strings.Contains(l, "──") {
			t.Errorf("plain look draws a rule: %q", l)
		}
		said = said || strings.Contains(l, title)
	}
	if !said {
		t.Errorf("plain look never names the night log:\n%s", strings.Join(look, "\n"))
	}
	if !strings.Contains(s.View(), "── "+title) {
		t.Errorf("the full screen lost its rule:\n%s", s.View())
	}
}
