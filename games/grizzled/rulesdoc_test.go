package grizzled_test

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
)

// ruleID is how a comment cites a rule of RULES.md by its id (SU-5, A4).
var ruleID = regexp.MustCompile(`\b(SU-\d|LC-\d|[TFEGLMW]-\d|[ASP]\d)\b`)

// Every rule id a comment of the game's folder cites is defined in
// RULES.md beside it (its sections are the module's rules-doc test's).
func TestCitedRuleIDsAreInTheRulesDoc(t *testing.T) {
	b, err := os.ReadFile("RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	checked := 0
	walkGo(t, func(path string) {
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
			for _, id := range ruleID.FindAllString(comment, -1) {
				checked++
				if !strings.Contains(doc, "**"+id+"**") && !strings.Contains(doc, "**"+id+" ") {
					t.Errorf("%s:%d cites %s, which RULES.md does not define", path, n, id)
				}
			}
		}
	})
	if checked < 50 {
		t.Fatalf("only %d citations found: is the walk looking in the right place?", checked)
	}
}

// Players read words, not the rules document's ids: no string a player
// can see ("(SU-7)", "(H08)") carries one. Comments may.
func TestNoRuleIDsInWhatPlayersRead(t *testing.T) {
	id := regexp.MustCompile(`\((?:H\d\d|MC|SU-\d|LC-\d|[TFEGLMW]-\d|[ASP]\d)\)`)
	fset := token.NewFileSet()
	walkGo(t, func(path string) {
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
				if n.Kind == token.STRING && id.MatchString(n.Value) {
					t.Errorf("%s: a player could read a rule id: %s", fset.Position(n.Pos()), n.Value)
				}
			}
			return true
		})
	})
}

// walkGo calls visit with every Go file of the game's folder.
func walkGo(t *testing.T, visit func(path string)) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			visit(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
