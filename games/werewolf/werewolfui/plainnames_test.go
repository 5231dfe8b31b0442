package werewolfui

import (
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/table"
)

// Plain mode reads every name whole: look and the players' list cut a
// 20-letter name to 12 ("1 Преображенс…", issue 42 item 5). The drawn
// screen still fits its column.
func TestPlainModeNeverCutsAName(t *testing.T) {
	long := "Преображенская Алёна"
	names := slices.Clone(names8)
	names[3] = long
	st, _, err := werewolf.NewStateDealt(names, werewolf.DefaultOptions(), 7, starterDeal())
	if err != nil {
		t.Fatal(err)
	}
	v := werewolf.Game{}.View(st, 0).(werewolf.SeatView)
	seats := make([]table.SeatInfo, len(names))
	for i, n := range names {
		seats[i] = table.SeatInfo{Seat: game.Seat(i), Name: n, Connected: true}
	}
	s := New(asciiTheme())
	s.SetSize(80, 24)
	s.SetUpdate(table.Update{Room: "W0LF", Title: game.Raw("Werewolves"), Game: werewolf.ID, Seat: 0, View: v, Seats: seats, Started: true})
	for what, lines := range map[string][]string{"table": s.Table(), "look": s.Look()} {
		if text := strings.Join(lines, "\n"); !strings.Contains(text, long) || strings.Contains(text, "…") {
			t.Errorf("plain %s cuts a name:\n%s", what, text)
		}
	}
	if view := s.View(); !strings.Contains(view, "Преображенс") {
		t.Errorf("the screen lost the name:\n%s", view)
	}
}
