package i18n_test

import (
	"regexp"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// A sentence about a player is written so it needs no gender: a slashed
// ending ("казнён(а)", "nałożył(a)") reads as a form to fill in, and the
// game does not know the player's gender (issue 30 item 5).
func TestNoSentenceLeavesAGenderEndingToFillIn(t *testing.T) {
	slashed := regexp.MustCompile(`\p{L}\((а|ой|ась|ла|a|y|ła)\)`)
	for _, l := range []i18n.Lang{i18n.Polish, i18n.Russian} {
		for key, m := range loadCatalog(t, l) {
			for form, text := range m {
				if s := slashed.FindString(text); s != "" {
					t.Errorf("%s %s (%s): %q leaves a gender ending to fill in: %s", l, key, form, s, text)
				}
			}
		}
	}
}
