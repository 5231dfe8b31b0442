package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"

	"github.com/charmbracelet/x/ansi"
)

// Who sits down at a correspondence table agrees to play over days: the
// lobby's line and the waiting room say so before the game starts (they
// said nothing: the pace showed first as a deadline under the first
// prompt). A live table's waiting room has no such line.
func TestACorrespondenceTableSaysItsPaceBeforeItStarts(t *testing.T) {
	for _, l := range i18n.Langs {
		a := testApp(t)
		corr := table.Options{Pace: table.Pace{Correspondence: true, Decision: time.Hour}}
		r, err := a.Hub.Create(table.RoomConfig{Game: coin{}, Title: game.Raw("Coin"), Seats: 3, Host: "fp-other", Options: corr})
		if err != nil {
			t.Fatal(err)
		}
		s := newSessionIn(t, a, "fp-me", "me", l)
		th := s.m.th
		line := ansi.Strip(s.m.lobby.roomLine(s.m, r.Summary(), false))
		if !strings.Contains(line, th.T("ui.lobby.correspondence")) {
			t.Errorf("%s: the lobby line does not say it is by correspondence: %q", l, line)
		}
		s.send(joinMsg{code: r.Code()})
		s.pump(`(?s)` + r.Code() + `.*1\. `)
		pace := th.T("form.pace") + "  " + th.T("form.pace_hour")
		if v := ansi.Strip(s.m.View()); !strings.Contains(v, pace) {
			t.Errorf("%s: the waiting room does not say %q:\n%s", l, pace, v)
		}

		live, err := a.Hub.Create(table.RoomConfig{Game: coin{}, Title: game.Raw("Coin"), Seats: 3, Host: "fp-other"})
		if err != nil {
			t.Fatal(err)
		}
		if line := ansi.Strip(s.m.lobby.roomLine(s.m, live.Summary(), false)); strings.Contains(line, th.T("ui.lobby.correspondence")) {
			t.Errorf("%s: a live table's line says correspondence: %q", l, line)
		}
		s2 := newSessionIn(t, a, "fp-you", "you", l)
		s2.send(joinMsg{code: live.Code()})
		s2.pump(`(?s)` + live.Code() + `.*1\. `)
		if v := ansi.Strip(s2.m.View()); strings.Contains(v, th.T("form.pace")+"  ") {
			t.Errorf("%s: a live table's waiting room names a pace:\n%s", l, v)
		}
	}
}
