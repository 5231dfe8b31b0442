package grizzledui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The rules reference has a page for every card of the game's card table,
// found by its code, in every language, and every page has words.
func TestRulesHaveAPageForEveryCard(t *testing.T) {
	for _, l := range i18n.Langs {
		th := uikit.New(nil)
		th.SetLang(l)
		s := New(th)
		pages := s.RulePages()
		for _, p := range pages {
			if strings.TrimSpace(p.Title) == "" || strings.TrimSpace(p.Body) == "" {
				t.Errorf("%s: an empty page %+v", l, p)
			}
		}
		for id := grizzled.CardID(1); id <= grizzled.NumCards; id++ {
			c := s.card(id)
			found := uikit.FindRules(pages, strings.ToLower(c.code))
			if len(found) != 1 {
				t.Fatalf("%s: %s finds %d pages", l, c.code, len(found))
			}
			if id >= grizzled.FirstHardKnock && (!strings.HasPrefix(found[0].Title, c.code+" ") || !strings.Contains(found[0].Body, c.text)) {
				t.Errorf("%s: %s finds %q", l, c.code, found[0].Title)
			}
		}
		// a word of a card's name finds it, accents and case aside
		name := s.card(grizzled.FirstHardKnock + 14).name // Selfish
		if found := uikit.FindRules(pages, strings.ToUpper(uikit.ToASCII(name))); len(found) == 0 || !strings.Contains(found[0].Title, name) {
			t.Errorf("%s: %q finds %v", l, name, found)
		}
	}
}
