package bivouac_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// namers are the packages outside every game's folder that may name a
// game by its ID: the command whose flags pick a game to simulate, and
// the store suite's sample records.
var namers = []string{"cmd/bivouac", "persistence/storetest"}

// legacyKeys are keys of a game's catalog that generic code names, each
// with why: records stored before a change read by them.
var legacyKeys = map[string]string{
	"form.grizzled.table_title_hints": "persistence: a room stored before the Hints option reads its hints from its title",
}

// TestOnlyAGamesOwnPackagesNameIt: generic code asks a game's module what
// it offers and never compares a game's ID (issue 31 item 1), nor names a
// word of a game's catalog (issue 38): no string literal outside a game's
// folder (games/ID/…) and namers is a game's ID, a key of a game's
// catalog or the start of a family of them ("grizzled.card."). Comments
// may name games.
func TestOnlyAGamesOwnPackagesNameIt(t *testing.T) {
	var ids []string
	for _, g := range games.Catalog() {
		ids = append(ids, g.Game.ID())
	}
	keys := gameKeys(t)
	fset := token.NewFileSet()
	for _, p := range listModule(t) {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if id, _ := gameOf(name); id != "" || slices.Contains(namers, name) {
			continue
		}
		dir := filepath.FromSlash(name)
		if name == "" {
			dir = "."
		}
		for _, file := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				switch {
				case err != nil || legacyKeys[s] != "":
				case slices.Contains(ids, s):
					t.Errorf("%s names game %q: ask the game's module (uikit.Module) instead", fset.Position(lit.Pos()), s)
				case keys[s] != "":
					t.Errorf("%s names %q, a word of %s's catalog: a game's words are said in its own folder", fset.Position(lit.Pos()), s, keys[s])
				case strings.HasSuffix(s, "."):
					for k, id := range keys {
						if strings.HasPrefix(k, s) {
							t.Errorf("%s names %q, a family of %s's catalog (%s): a game's words are said in its own folder", fset.Position(lit.Pos()), s, id, k)
							break
						}
					}
				}
				return true
			})
		}
	}
	for k := range legacyKeys {
		if keys[k] == "" {
			t.Errorf("legacy key %s is in no game's catalog: drop it from legacyKeys", k)
		}
	}
}

// gameKeys are the keys of every game's catalog, each with its game.
func gameKeys(t *testing.T) map[string]string {
	keys := map[string]string{}
	for _, c := range i18n.Catalogs() {
		if c.Name == "" {
			continue
		}
		b, err := fs.ReadFile(c.Files, "en.toml")
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := toml.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		var walk func(prefix string, m map[string]any)
		walk = func(prefix string, m map[string]any) {
			for k, v := range m {
				if sub, ok := v.(map[string]any); ok {
					walk(prefix+k+".", sub)
				} else if slices.Contains([]string{"zero", "one", "two", "few", "many", "other"}, k) {
					keys[strings.TrimSuffix(prefix, ".")] = c.Name
				} else {
					keys[prefix+k] = c.Name
				}
			}
		}
		walk("", raw)
	}
	if len(keys) < 100 {
		t.Fatalf("only %d keys in the games' catalogs", len(keys))
	}
	return keys
}

// Every registered game lives in its folder, games/ID: its rules are
// package games/ID, and its words are registered under its ID.
func TestEveryGameLivesInItsFolder(t *testing.T) {
	registered := map[string]bool{}
	for _, c := range i18n.Catalogs() {
		registered[c.Name] = true
	}
	for _, g := range games.Catalog() {
		id := g.Game.ID()
		if got := reflect.TypeOf(g.Game).PkgPath(); got != module+"/games/"+id {
			t.Errorf("game %s's rules are package %s, not games/%s", id, got, id)
		}
		if !registered[id] {
			t.Errorf("game %s registers no catalog under its ID (games/%s/catalog)", id, id)
		}
	}
}
