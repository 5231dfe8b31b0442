package i18n_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// A sentence addressed to the reader, or a tag beside a player's name,
// reads the same whatever form of address the player chose, unless it has
// feminine. and masculine. wordings (issue 42 item 8): the base wording,
// which a player with no choice or the neutral one reads, has no gender.
//
// What a program can see is checked: a Polish second-person past tense or
// conditional ("wygrałeś", "zrobiłabyś"), and "jesteś" or "zostałeś" with
// an adjective or a noun of one gender ("jesteś gotowy", "jesteś
// gospodarzem"); Russian "вы" is plural, and its past tense and short
// adjectives have no gender. What it cannot see (third-person sentences
// about a player, a noun that names one) is kept by hand: tagKeys are the
// words drawn beside a name, whose Polish and German base wording must be
// none of gendered's nouns; the sentences about the host and the rest were
// read one by one for this issue (the commit that adds this test).
func TestNoBaseWordingAddressesTheReaderInOneGender(t *testing.T) {
	// (RE2's \b is ASCII's: a Polish letter would end a word.)
	secondPast := regexp.MustCompile(`(?i)\p{L}+(łeś|łaś|łbyś|łabyś)(\P{L}|$)`)
	being := regexp.MustCompile(`(?i)(^|\P{L})(jesteś|zostałeś|zostałaś|byłeś|byłaś|będziesz)\s+(\p{L}+(y|a|ny|na|ty|ta|ły|ła|ony|ona)|graczem|gospodarzem|weteranem|kandydatem|zwycięzcą|gospodynią)(\P{L}|$)`)
	for key, m := range loadCatalog(t, i18n.Polish) {
		if strings.HasPrefix(key, "feminine.") || strings.HasPrefix(key, "masculine.") {
			continue
		}
		for form, text := range m {
			if s := secondPast.FindString(text); s != "" {
				t.Errorf("pl %s (%s): %q speaks to the reader in one gender: %s", key, form, s, text)
			}
			if s := being.FindString(text); s != "" {
				t.Errorf("pl %s (%s): %q speaks to the reader in one gender: %s", key, form, s, text)
			}
		}
	}
	for _, l := range []i18n.Lang{i18n.Polish, i18n.German} {
		msgs := loadCatalog(t, l)
		for _, key := range tagKeys {
			m, ok := msgs[key]
			if !ok {
				t.Errorf("%s has no %s", l, key)
				continue
			}
			for form, text := range m {
				for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == '(' || r == ')' }) {
					if slices.Contains(gendered[l], w) {
						t.Errorf("%s %s (%s): %q, beside a name, is one gender's word: %s", l, key, form, w, text)
					}
				}
			}
		}
	}
}

// tagKeys are the words drawn beside a player's name, the reader's or
// another's.
var tagKeys = []string{"ui.lobby.veteran", "ui.profile.veteran_since", "ui.lobby.guest", "ui.tag.you", "ui.tag.bot", "ui.tag.away",
	"ui.people.tag.ignored", "ui.people.tag.blocked", "werewolfui.candidate", "werewolfui.away", "werewolfui.victim", "werewolfui.abstains"}

// gendered are nouns and adjectives of one gender that a tag might be.
var gendered = map[i18n.Lang][]string{
	i18n.Polish: {"weteran", "weteranka", "kandydat", "kandydatka", "gospodarz", "gospodyni", "gracz", "graczka", "nieobecny", "nieobecna",
		"gotowy", "gotowa", "zwycięzca", "zwyciężczyni", "wyciszony", "wyciszona", "zablokowany", "zablokowana"},
	i18n.German: {"veteran", "veteranin", "kandidat", "kandidatin", "gastgeber", "gastgeberin", "spieler", "spielerin", "sieger", "siegerin"},
}
