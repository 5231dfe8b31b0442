package tui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/x/ansi"
)

// A table's line in the lobby that runs past the window (a full table's
// names) is cut with the theme's ellipsis, never in the middle of a name
// with nothing to say so: "vera, Bruno (бот), Ce" at 80 columns (issue 30).
func TestALobbyLineCutSaysSo(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		a := testApp(t)
		s := newSessionIn(t, a, "fp-vera", "vera", i18n.Russian)
		s.m.th = a.Theme(nil, i18n.Russian, ascii)
		r := table.Summary{Code: "HYGJ", Title: game.Raw("Оборотни · классика · 8 игроков"), Status: table.StatusOver}
		for _, n := range []string{"vera", "Bruno", "Celine", "Dmitri", "Ewa", "Fabien", "Greta", "Hugo"} {
			r.Seats = append(r.Seats, table.SeatInfo{Name: n + game.BotMark})
		}
		line := ansi.Strip(s.m.lobby.roomLine(s.m, r, false))
		if w := uikit.Width(line); w != 80 || !strings.HasSuffix(line, s.m.th.Ellipsis()) {
			t.Errorf("ascii=%v: a lobby line cut at 80 (%d cells): %q", ascii, w, line)
		}
	}
}

// A long title and a seat of the player's own at a waiting table: the
// table's status is whole, the title's last part ("· 4 игрока", the
// seats are counted beside it) gives way (it was "ваше место · ждёт ·
// свободн…" at 80 columns, seen over SSH in Russian).
func TestALobbyLineKeepsTheStatusWhole(t *testing.T) {
	for _, l := range i18n.Langs {
		a := testApp(t)
		s := newSessionIn(t, a, "fp-vera", "vera", l)
		th := s.m.th
		title := "Братья по оружию · Стандарт · 4 игрока"
		r := table.Summary{Code: "B2H6", Title: game.Raw(title), Status: table.StatusWaiting, Open: 2,
			Players: []string{"fp-bob", "fp-vera"}, Seats: []table.SeatInfo{{Name: "bob"}, {Name: "vera"}, {}, {}}}
		line := ansi.Strip(s.m.lobby.roomLine(s.m, r, true))
		status := th.T("ui.lobby.your_seat") + " · " + th.T("ui.lobby.waiting_open", game.Num("N", 2))
		if !strings.Contains(line, status) || uikit.Width(line) > 80 {
			t.Errorf("%s: %q", l, line)
		}
		r.Players = []string{"fp-bob"} // not the player's: the title is whole
		if line := ansi.Strip(s.m.lobby.roomLine(s.m, r, false)); !strings.Contains(line, title) {
			t.Errorf("%s, not seated: %q", l, line)
		}
	}
}
