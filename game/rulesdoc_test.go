package game_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every rule a comment cites (§3.6, SU-5, A4) is in the rules reference
// under docs/, so a reader of the code can look it up in the repository.
func TestCitedRulesAreInTheDocs(t *testing.T) {
	docs := map[string]string{}
	for _, name := range []string{"grizzled", "werewolves"} {
		b, err := os.ReadFile(filepath.Join("..", "docs", "RULES-"+name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = string(b)
	}
	section := regexp.MustCompile(`§ ?(\d+(?:\.\d+)?)`)
	grizzledID := regexp.MustCompile(`\b(SU-\d|LC-\d|[TFEGLMW]-\d|[ASP]\d)\b`)
	checked := 0
	for _, dir := range []string{"../game", "../games", "../table", "../tui", "../server"} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			var want []string // which docs may hold the file's citations
			switch {
			case strings.Contains(path, "grizzled"):
				want = []string{"grizzled"}
			case strings.Contains(path, "werewolf"):
				want = []string{"werewolves"}
			default:
				want = []string{"grizzled", "werewolves"}
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			for n := 1; sc.Scan(); n++ {
				line := sc.Text()
				_, comment, ok := strings.Cut(line, "//")
				if !ok {
					continue
				}
				for _, m := range section.FindAllStringSubmatch(comment, -1) {
					checked++
					if !anyDoc(docs, want, hasSection(m[1])) {
						t.Errorf("%s:%d cites §%s, which no rules doc (%v) has", path, n, m[1], want)
					}
				}
				if want[0] == "grizzled" && len(want) == 1 {
					for _, id := range grizzledID.FindAllString(comment, -1) {
						checked++
						if d := docs["grizzled"]; !strings.Contains(d, "**"+id+"**") && !strings.Contains(d, "**"+id+" ") {
							t.Errorf("%s:%d cites %s, which docs/RULES-grizzled.md does not define", path, n, id)
						}
					}
				}
			}
			return sc.Err()
		})
	}
	if checked < 50 {
		t.Fatalf("only %d citations found: is the walk looking in the right place?", checked)
	}
	t.Logf("%d citations checked", checked)
}

// hasSection matches "## 6." / "### 6.4" headings and "- **6.4 Name**" items.
func hasSection(num string) func(doc string) bool {
	re := regexp.MustCompile(`(?m)^(#+ ` + regexp.QuoteMeta(num) + `[. ]|- \*\*` + regexp.QuoteMeta(num) + `[ .*])`)
	return func(doc string) bool { return re.MatchString(doc) }
}

func anyDoc(docs map[string]string, names []string, ok func(string) bool) bool {
	for _, n := range names {
		if ok(docs[n]) {
			return true
		}
	}
	return false
}

// Players read words, not the rule documents' ids: no string a player can
// see ("(SU-7)", "(rules §6.4)", "(H08)") carries one. Comments may.
func TestNoRuleIDsInWhatPlayersRead(t *testing.T) {
	id := regexp.MustCompile(`§\s?\d|\((?:H\d\d|MC|SU-\d|LC-\d|[TFEGLMW]-\d|[ASP]\d)\)`)
	fset := token.NewFileSet()
	for _, dir := range []string{"../game", "../games", "../table", "../tui", "../server"} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Field:
					return n.Tag == nil // struct tags are not text
				case *ast.BasicLit:
					if n.Kind == token.STRING && id.MatchString(n.Value) {
						t.Errorf("%s: a player could read a rule id: %s", fset.Position(n.Pos()), n.Value)
					}
				}
				return true
			})
			return nil
		})
	}
}
