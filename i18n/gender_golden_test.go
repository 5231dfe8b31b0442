package i18n

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// genderCases are the players the golden files name: one per way a
// player may ask to be addressed, and one who has not said.
var genderCases = []struct {
	name string
	g    game.Gender
}{{"Anna", game.Feminine}, {"Hugo", game.Masculine}, {"Alex", game.Neutral}, {"Sam", game.GenderUnset}}

// Every message with a wording for a feminine or masculine player, in
// any language, rendered in Polish, Russian and German for each of
// genderCases, must read as testdata/gender.LANG.txt says (the review of
// that file is where a wrong ending is seen). Other arguments render as
// ‹Name›. -update rewrites the files, as for TestPluralsReadAsReviewed.
func TestGenderedSentencesReadAsReviewed(t *testing.T) {
	var keys []string
	for _, l := range Langs {
		for k, m := range For(l).messages {
			if m.gendered != nil && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		t.Fatal("no message has a gendered wording")
	}
	for _, l := range []Lang{Polish, Russian, German} {
		got := renderGenders(For(l), keys)
		checkReviewed(t, filepath.Join("testdata", "gender."+string(l)+".txt"), got, "TestGenderedSentencesReadAsReviewed", "a gendered message")
	}
}

func renderGenders(p *Printer, keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		m := p.messages[k]
		for _, c := range genderCases {
			args := []game.Arg{game.Person("Player", c.name, c.g)}
			for _, a := range m.args() {
				if a != "Player" {
					args = append(args, game.Text(a, "‹"+a+"›"))
				}
			}
			fmt.Fprintf(&b, "%s %s: %s\n", k, c.name, p.T(k, args...))
		}
	}
	return b.String()
}

// A gendered wording is picked by the Player argument's gender only:
// another argument's gender, or none, leaves the wording that needs none.
func TestOnlyThePlayerPicksTheWording(t *testing.T) {
	p := For(Polish)
	const key = "table.bot_stands_in"
	plain := p.T(key, game.Text("Player", "Anna"))
	if got := p.T(key, game.Person("Player", "Anna", game.Feminine)); got == plain || !strings.Contains(got, "za nią") {
		t.Fatalf("feminine Player: %q (unset reads %q)", got, plain)
	}
	if got := p.T(key, game.Text("Player", "Anna"), game.Person("Target", "Hugo", game.Masculine)); got != plain {
		t.Fatalf("a Target's gender changed the wording: %q, want %q", got, plain)
	}
	if got := p.T(key, game.Person("Player", "Anna", game.Gender(200))); got != plain {
		t.Fatalf("an unknown gender: %q, want %q", got, plain)
	}
	if got := For(English).T(key, game.Person("Player", "Anna", game.Feminine)); got != For(English).T(key, game.Text("Player", "Anna")) {
		t.Fatalf("English has no gendered wording, yet reads %q", got)
	}
}
