package grizzledui

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// In ASCII mode, at 80×24 and in Russian, 20-letter Cyrillic names are
// romanised before the table is laid out (BGN/PCGN: "Святослав" is
// "Svyatoslav"), every line still fits, and what is left after the final
// per-cell swap is ASCII (issue 30 item 9).
func TestASCIITableRomanisesNamesAndFits(t *testing.T) {
	names := []string{"Святослав-Ярополкови", "Щукина-Жанна-Юрьевна", "Małgorzata-Żółkiewsk", "Хрущёв-Чайковский-Ща"}
	wants := []string{"Svyatoslav-Yaro", "Shchukina-Zhann", "Malgorzata-Zolk", "Khrushchyov-Cha"}
	th := asciiTheme()
	th.SetLang(i18n.Russian)
	th.SetASCII(true)
	g := grizzled.Game{}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: names, Options: opts}, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(names))
	for step := 0; step < 120; step++ {
		if _, over := g.Result(st); over {
			break
		}
		waiting := g.Waiting(st)
		seat := waiting[step%len(waiting)]
		v := g.View(st, seat).(grizzled.SeatView)
		if len(log) > 30 {
			log = log[len(log)-30:]
		}
		s := New(th)
		s.SetSize(80, 23)
		s.SetUpdate(table.Update{Room: "TEST", Title: game.Raw("Окопы"), Seat: seat, Seq: v.Seq, View: v, Log: game.Refs(log), Started: true})
		out := uikit.ToASCII(s.View())
		checkFits(t, out, 80, 23)
		for i, b := range []byte(out) {
			if b >= utf8.RuneSelf {
				t.Fatalf("step %d: a byte beyond ASCII at %d", step, i)
			}
		}
		for i, w := range wants {
			seen[i] = seen[i] || strings.Contains(out, w)
		}
		if strings.Contains(out, "Svatoslav") {
			t.Fatalf("step %d: the name was swapped letter by letter:\n%s", step, out)
		}
		legal := g.Legal(st, seat)
		var evs []game.Event
		if st, evs, err = g.Apply(st, seat, legal[step%len(legal)]); err != nil {
			t.Fatal(err)
		}
		log = append(log, evs...)
	}
	for i, ok := range seen {
		if !ok {
			t.Errorf("%q was never shown as %q", names[i], wants[i])
		}
	}
}
