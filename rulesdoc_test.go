package bivouac_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games"
)

// Every registered game keeps its rules document in its folder,
// games/ID/RULES.md, and every section a comment cites (§3.6) is in it,
// so a reader of the code can look it up in the repository: a comment in
// a game's folder cites its own game's document, one outside every
// game's folder (a table's rule, a campaign's) any game's. A game's own
// rule ids (The Grizzled's SU-5) are its own tests' business.
func TestCitedSectionsAreInTheRulesDocs(t *testing.T) {
	docs := map[string]string{}
	for _, g := range games.Catalog() {
		id := g.Game.ID()
		b, err := os.ReadFile(filepath.Join("games", id, "RULES.md"))
		if err != nil {
			t.Errorf("game %s has no rules document: %v", id, err)
			continue
		}
		docs[id] = string(b)
	}
	section := regexp.MustCompile(`§ ?(\d+(?:\.\d+)?)`)
	checked := 0
	walkGo(t, func(path, id string) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			_, comment, ok := strings.Cut(sc.Text(), "//")
			if !ok {
				continue
			}
			for _, m := range section.FindAllStringSubmatch(comment, -1) {
				checked++
				found := false
				for doc, text := range docs {
					if (id == "" || id == doc) && hasSection(text, m[1]) {
						found = true
					}
				}
				if !found && id != "" {
					t.Errorf("%s:%d cites §%s, which games/%s/RULES.md does not have", path, n, m[1], id)
				} else if !found {
					t.Errorf("%s:%d cites §%s, which no game's RULES.md has", path, n, m[1])
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	})
	if checked < 50 {
		t.Fatalf("only %d citations found: is the walk looking in the right place?", checked)
	}
	t.Logf("%d citations checked", checked)
}

// hasSection says whether doc has section num: a "## 6." or "### 6.4"
// heading, or a "- **6.4 Name**" item.
func hasSection(doc, num string) bool {
	re := regexp.MustCompile(`(?m)^(#+ ` + regexp.QuoteMeta(num) + `[. ]|- \*\*` + regexp.QuoteMeta(num) + `[ .*])`)
	return re.MatchString(doc)
}

// Players read words, not the rules documents' sections: no string a
// player can see ("(rules §6.4)") carries one. Comments may.
func TestNoRuleSectionsInWhatPlayersRead(t *testing.T) {
	section := regexp.MustCompile(`§\s?\d`)
	fset := token.NewFileSet()
	walkGo(t, func(path, _ string) {
		if strings.HasSuffix(path, "_test.go") {
			return
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				return n.Tag == nil // struct tags are not text
			case *ast.BasicLit:
				if n.Kind == token.STRING && section.MatchString(n.Value) {
					t.Errorf("%s: a player could read a rule's section: %s", fset.Position(n.Pos()), n.Value)
				}
			}
			return true
		})
	})
}

// walkGo calls visit with every Go file of the module (testdata and
// hidden folders aside) and the ID of the game whose folder holds it ("":
// none).
func walkGo(t *testing.T, visit func(path, game string)) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		id := ""
		if rest, ok := strings.CutPrefix(filepath.ToSlash(path), "games/"); ok && strings.Contains(rest, "/") {
			id, _, _ = strings.Cut(rest, "/")
		}
		visit(path, id)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
