package werewolfui

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The rules reference has a page for every role the game deals, with its
// full text, in every language.
func TestRulesHaveAPageForEveryRole(t *testing.T) {
	for _, l := range i18n.Langs {
		th := uikit.New(nil)
		th.SetLang(l)
		pages := New(th).RulePages()
		for r := werewolf.RoleWerewolf; r <= werewolf.RoleThief; r++ {
			found := uikit.FindRules(pages, th.T(r.Key()))
			if len(found) == 0 || found[0].Title != th.T(r.Key()) || len(found[0].Body) < 60 {
				t.Errorf("%s: %s finds %+v", l, r, found)
			}
		}
	}
}
