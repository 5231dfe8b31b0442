package game_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sentence is how words for a reader look in a string literal: three words
// in a row ("Let's eat %s."), or two ending like a sentence ("I suspect %s.").
var sentence = regexp.MustCompile(`[A-Za-z']+ [A-Za-z%']+ [A-Za-z%']+|[A-Za-z']+ [A-Za-z%']+[.?!…]`)

// devCalls take words for developers (logs, test failures), never shown
// to a player: a literal passed to one is not text for players; nor is one
// in a devFuncs method: String (logs), Title (the game's own name, when
// the catalog has none), Check (the state's invariants, a batch's
// settings), and a simulation's Settings, WriteReport and Columns (what
// `bivouac sim` prints, in English, for whoever runs it).
var (
	devCalls = map[string]bool{"errors.New": true, "fmt.Errorf": true, "panic": true}
	devFuncs = map[string]bool{"String": true, "Title": true, "Check": true,
		"Settings": true, "WriteReport": true, "Columns": true}
)

// TestRulesHoldNoSentences keeps every word a player reads out of the
// rules: a game says things as catalog messages (game.Msg) rendered in the
// viewer's language. It reads every string literal of the packages under
// game/ and of every game's rules and bots (games/ID, its screens aside;
// tests aside) and fails on one that reads like an English sentence,
// unless it is for developers (devCalls, devFuncs; commands: package
// main in a game's folder, and simcmd, which is `bivouac sim`).
func TestRulesHoldNoSentences(t *testing.T) {
	n := 0
	walk := func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "gametest" || d.Name() == "simcmd" || // they speak to developers
			strings.HasSuffix(d.Name(), "ui")) { // a screen is no rules package
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		n++
		if f.Name.Name == "main" {
			return nil // a command a developer runs
		}
		dev := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.Field: // struct tags
				if x.Tag != nil {
					dev[x.Tag] = true
				}
			case *ast.FuncDecl:
				if devFuncs[x.Name.Name] {
					markLiterals(x, dev)
				}
			case *ast.CallExpr:
				if devCalls[callName(x.Fun)] {
					for _, a := range x.Args {
						markLiterals(a, dev)
					}
				}
			case *ast.BasicLit:
				if x.Kind != token.STRING || dev[x] {
					return true
				}
				s, err := strconv.Unquote(x.Value)
				if err == nil && sentence.MatchString(s) {
					t.Errorf("%s: %q reads like a sentence for players: make it a catalog message (game.M)", fset.Position(x.Pos()), s)
				}
			}
			return true
		})
		return nil
	}
	for _, root := range []string{".", filepath.Join("..", "games")} {
		if err := filepath.WalkDir(root, walk); err != nil {
			t.Fatal(err)
		}
	}
	if n < 20 {
		t.Fatalf("read only %d files", n)
	}
}

// markLiterals notes every string literal under n.
func markLiterals(n ast.Node, dev map[*ast.BasicLit]bool) {
	ast.Inspect(n, func(m ast.Node) bool {
		if lit, ok := m.(*ast.BasicLit); ok {
			dev[lit] = true
		}
		return true
	})
}

func callName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	}
	return ""
}
