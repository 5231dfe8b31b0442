package bivouac_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games"
)

// namers are the packages that may name a game by its ID besides the
// game's own (those whose path holds the ID: games/grizzled/grizzbot,
// games/werewolf/werewolfui): the package that puts the games together, the
// command whose flags pick a game to simulate, and the store suite's
// sample records.
var namers = []string{"games", "cmd/bivouac", "persistence/storetest"}

// TestOnlyAGamesOwnPackagesNameIt: generic code asks a game's entry what
// it offers and never compares a game's ID (issue 31 item 1), so no
// string literal outside the game's own packages and namers is a game's
// ID. Comments may name games.
func TestOnlyAGamesOwnPackagesNameIt(t *testing.T) {
	var ids []string
	for _, g := range games.Catalog() {
		ids = append(ids, g.Game.ID())
	}
	fset := token.NewFileSet()
	for _, p := range listModule(t) {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		dir := filepath.FromSlash(name)
		if name == "" {
			dir = "."
		}
		for _, id := range ids {
			if strings.Contains(name, id) || slices.Contains(namers, name) {
				continue
			}
			for _, file := range p.GoFiles {
				f, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				ast.Inspect(f, func(n ast.Node) bool {
					if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, err := strconv.Unquote(lit.Value); err == nil && s == id {
							t.Errorf("%s names game %q: ask the game's entry (uikit.Module) instead", fset.Position(lit.Pos()), id)
						}
					}
					return true
				})
			}
		}
	}
}
