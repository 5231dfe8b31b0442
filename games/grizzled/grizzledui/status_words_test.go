package grizzledui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// A soldier's status in the mission reads as words in every language and
// fits its column: "отст.+ж", "wyc.+żet" and "raus+Pl." (withdrawn, tile
// placed) were abbreviations a reader had to decode (issue 30), and
// "wycofany", "отступил" spoke of every soldier as a man (issue 42). Dee has
// withdrawn and placed a tile at the mid-mission table.
func TestSoldierStatusIsWordsThatFit(t *testing.T) {
	for l, want := range map[i18n.Lang]string{
		i18n.English: "out", i18n.Polish: "odwrót", i18n.Russian: "отход", i18n.German: "raus",
	} {
		th := asciiTheme()
		th.SetLang(l)
		s := New(th)
		s.SetHelpBar(true)
		s.SetSize(80, 24)
		s.SetUpdate(midMission())
		out := s.View()
		checkFits(t, out, 80, 24)
		row := ""
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "   Dee ") {
				row = line
			}
		}
		if !strings.Contains(row, " "+want+" ") || strings.ContainsAny(row, "+") {
			t.Errorf("%s: Dee's row %q, want the status %q in words, with room after it", l, row, want)
		}
		for _, k := range []string{"in", "answered", "out"} {
			if w := th.T("grizzledui.status." + k); width(w) > statusW || strings.ContainsAny(w, ".+") {
				t.Errorf("%s %s: %q (%d cells, at most %d, in words)", l, k, w, width(w), statusW)
			}
		}
	}
}
