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
