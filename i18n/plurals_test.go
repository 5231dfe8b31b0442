package i18n

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

var update = flag.Bool("update", false, "write testdata/plurals.*.txt from the catalogs (then review the diff)")

// pluralCounts cover every CLDR form of pl, ru and de, and the numbers
// that trip them: 0, 1, 2, 5, teens (12), 21 and 22.
var pluralCounts = []int{0, 1, 2, 5, 12, 21, 22}

// Every message with a count, rendered at each of pluralCounts in Polish,
// Russian and German, must read as testdata/plurals.LANG.txt says: a
// sentence whose number does not agree is seen in review of that file,
// and a catalog change that alters one shows in its diff. Other arguments
// render as ‹Name›. Run with -update to rewrite the files after a reviewed
// catalog change.
func TestPluralsReadAsReviewed(t *testing.T) {
	for _, l := range []Lang{Polish, Russian, German} {
		got := renderCounts(For(l))
		checkReviewed(t, filepath.Join("testdata", "plurals."+string(l)+".txt"), got, "TestPluralsReadAsReviewed", "a counted message")
	}
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

// renderCounts is every counted message of p at each of pluralCounts, one
// line each, sorted by key.
func renderCounts(p *Printer) string {
	var keys []string
	for k, m := range p.messages {
		if m.plural || slices.ContainsFunc(m.args(), func(a string) bool { return a == "Count" }) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		var args []game.Arg
		for _, a := range p.messages[k].args() {
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

// args are the names of the arguments m's forms use, each once.
func (m *message) args() []string {
	var v []string
	for _, f := range m.forms {
		for _, s := range f {
			if s.arg != "" && !slices.Contains(v, s.arg) {
				v = append(v, s.arg)
			}
		}
	}
	return v
}
