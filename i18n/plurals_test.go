package i18n_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

var update = flag.Bool("update", false, "write the reviewed files (plurals.*.txt, gender.*.txt) from the catalogs (then review the diff)")

// pluralCounts cover every CLDR form of pl, ru and de, and the numbers
// that trip them: 0, 1, 2, 5, teens (12), 21 and 22.
var pluralCounts = []int{0, 1, 2, 5, 12, 21, 22}

// Every message with a count, rendered at each of pluralCounts in Polish,
// Russian and German, must read as its catalog's testdata/plurals.LANG.txt
// says (i18n/testdata for the shared words, games/ID/catalog/testdata for
// a game's): a sentence whose number does not agree is seen in review of
// that file, and a catalog change that alters one shows in its diff.
// Other arguments render as ‹Name›. Run with -update to rewrite the files
// after a reviewed catalog change.
func TestPluralsReadAsReviewed(t *testing.T) {
	for _, c := range i18n.Catalogs() {
		for _, l := range []i18n.Lang{i18n.Polish, i18n.Russian, i18n.German} {
			got := renderCounts(i18n.For(l), c.Name)
			checkReviewed(t, filepath.Join(reviewedDir(c), "plurals."+string(l)+".txt"), got, "TestPluralsReadAsReviewed", "a counted message")
		}
	}
}

// reviewedDir is where a catalog's reviewed renderings are kept: beside
// the catalog, under testdata.
func reviewedDir(c i18n.Catalog) string {
	if c.Name == "" {
		return "testdata"
	}
	return filepath.Join("..", "games", c.Name, "catalog", "testdata")
}

// checkReviewed compares got with the reviewed file at path and names the
// first line that differs; with -update it rewrites the file instead. test
// is the test that writes it, what the kind of message a difference is.
func checkReviewed(t *testing.T, path, got, test, what string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./i18n -run %s -update writes it)", err, test)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := "", ""
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s line %d:\n got  %s\n want %s\n(%s was added or changed: check it reads right, then\n go test ./i18n -run %s -update and commit the file)", path, i+1, g, w, what, test)
			return
		}
	}
}

// keysOf are the keys of p's language that catalog holds, sorted.
func keysOf(p *i18n.Printer, catalog string, want func(key string) bool) []string {
	var keys []string
	for k, c := range i18n.Messages(p) {
		if c == catalog && want(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// renderCounts is every counted message of catalog in p's language at
// each of pluralCounts, one line each, sorted by key.
func renderCounts(p *i18n.Printer, catalog string) string {
	var b strings.Builder
	for _, k := range keysOf(p, catalog, func(k string) bool { return i18n.Counted(p, k) }) {
		var args []game.Arg
		for _, a := range i18n.Args(p, k) {
			if a != "Count" {
				args = append(args, game.Text(a, "‹"+a+"›"))
			}
		}
		for _, n := range pluralCounts {
			fmt.Fprintf(&b, "%s %d: %s\n", k, n, strings.ReplaceAll(p.T(k, append(args, game.Count(n))...), "\n", "¶"))
		}
	}
	return b.String()
}
