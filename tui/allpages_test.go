package tui_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit/screentest"
)

// Every page a player reaches, with every registered game, at 80×24 in
// every language and with 20-letter names, cuts no word: a word cut by an
// ellipsis, the edge or a wrap is a name longer than its column, or a
// fault (issue 42 item 7: "wygra…", "poraż…"); no page leaves a catalog
// key unrendered. The games' table screens,
// their ends among them, are screentest's (games' TestEveryScreenConforms).
func TestNoPageCutsAWord(t *testing.T) {
	names := slices.Concat(tui.LongNames, tui.WalkedCodes, tui.HostedCodes)
	for _, l := range i18n.Langs {
		t.Run(string(l), func(t *testing.T) {
			words := screentest.CatalogWords(t, l)
			tui.WalkPages(t, games.Catalog(), l, func(where, view string) {
				lines := strings.Split(view, "\n")
				if len(lines) > 24 {
					t.Errorf("%s: %d lines at 80×24", where, len(lines))
				}
				for _, c := range words.CutWords(lines, 80, names) {
					t.Errorf("%s: a word cut: %s", where, c)
				}
				for _, c := range screentest.CutBars(lines) {
					t.Errorf("%s: a help bar dropped ?: %s", where, c)
				}
				for _, u := range screentest.Unrendered(t, lines) {
					t.Errorf("%s: unrendered words: %s", where, u)
				}
			})
		})
	}
}
