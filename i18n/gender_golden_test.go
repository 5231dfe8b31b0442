package i18n_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// genderCases are the players the golden files name: one per way a
// player may ask to be addressed, and one who has not said.
var genderCases = []struct {
	name string
	g    game.Gender
}{{"Anna", game.Feminine}, {"Hugo", game.Masculine}, {"Alex", game.Neutral}, {"Sam", game.GenderUnset}}

// Every message with a wording for a feminine or masculine player, in
// any language, rendered in Polish, Russian and German for each of
// genderCases, must read as its catalog's testdata/gender.LANG.txt says
// (the review of that file is where a wrong ending is seen). Other
// arguments render as ‹Name›. -update rewrites the files, as for
// TestPluralsReadAsReviewed.
func TestGenderedSentencesReadAsReviewed(t *testing.T) {
	gendered := map[string]bool{}
	for _, l := range i18n.Langs {
		for k := range i18n.Messages(i18n.For(l)) {
			if i18n.Gendered(i18n.For(l), k) {
				gendered[k] = true
			}
		}
	}
	if len(gendered) == 0 {
		t.Fatal("no message has a gendered wording")
	}
	for _, c := range i18n.Catalogs() {
		keys := keysOf(i18n.For(i18n.English), c.Name, func(k string) bool { return gendered[k] })
		if len(keys) == 0 {
			continue // nothing in this catalog agrees with a player
		}
		for _, l := range []i18n.Lang{i18n.Polish, i18n.Russian, i18n.German} {
			got := renderGenders(i18n.For(l), keys)
			checkReviewed(t, filepath.Join(reviewedDir(c), "gender."+string(l)+".txt"), got, "TestGenderedSentencesReadAsReviewed", "a gendered message")
		}
	}
}

func renderGenders(p *i18n.Printer, keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		for _, c := range genderCases {
			args := []game.Arg{game.Person("Player", c.name, c.g)}
			for _, a := range i18n.Args(p, k) {
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
	p := i18n.For(i18n.Polish)
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
	if got := i18n.For(i18n.English).T(key, game.Person("Player", "Anna", game.Feminine)); got != i18n.For(i18n.English).T(key, game.Text("Player", "Anna")) {
		t.Fatalf("English has no gendered wording, yet reads %q", got)
	}
}
