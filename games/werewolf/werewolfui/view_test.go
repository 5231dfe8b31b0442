package werewolfui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestAfterNightsCountsInWords(t *testing.T) {
	en := i18n.For(i18n.English)
	for n, want := range map[int]string{1: "after 1 night", 2: "after 2 nights", 11: "after 11 nights"} {
		if got := en.T("werewolfui.after_nights", game.Count(n)); got != want {
			t.Errorf("after_nights(%d) = %q, want %q", n, got, want)
		}
	}
}

// The narration stands between the quotation marks of the reader's
// language, not English ones everywhere: pl „…”, de „…“, ru «…» (the
// quotes come from the catalog, werewolfui.quote_open/quote_close).
func TestNarrationQuotesFollowTheLanguage(t *testing.T) {
	want := map[i18n.Lang][2]string{i18n.English: {"“", "”"}, i18n.Polish: {"„", "”"}, i18n.German: {"„", "“"}, i18n.Russian: {"«", "»"}}
	u := starterDawn(t).update(0)
	for _, l := range i18n.Langs {
		q, ok := want[l]
		if !ok {
			t.Fatalf("%s: no quotation marks expected here: add the language", l)
		}
		th := asciiTheme()
		th.SetLang(l)
		s := New(th)
		s.SetSize(80, 24)
		s.SetUpdate(u)
		line := s.narrationLine(80)
		said := th.Msg(s.v.Narration)
		if said == "" {
			t.Fatalf("%s: no narration at dawn", l)
		}
		if !strings.HasPrefix(line, q[0]) || !strings.HasSuffix(line, q[1]) || !strings.Contains(line, strings.Fields(said)[0]) {
			t.Errorf("%s: narration %q, want it between %s and %s", l, line, q[0], q[1])
		}
		if w := width(line); w > 80 {
			t.Errorf("%s: narration is %d cells wide", l, w)
		}
	}
}
