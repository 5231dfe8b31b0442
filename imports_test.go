// Package bivouac_test holds the tests about the module as a whole.
package bivouac_test

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

// module is the module path: a package's name in rules is its import path
// without this prefix.
const module = "github.com/bivouac-ssh/bivouac"

// importRule is one row of docs/ARCHITECTURE.md's package table: the
// packages it covers and what their code (not their tests) may import
// beyond the standard library, which is always allowed. A name is a
// package of this module ("tui/uikit") or a third-party name from
// thirdParty ("bubbletea"). An empty mayImport means standard library only.
type importRule struct {
	packages  []string
	mayImport []string
}

// rules is the table, row for row as docs/ARCHITECTURE.md writes it.
var rules = []importRule{
	{[]string{"words"}, nil},
	{[]string{"game"}, []string{"words"}},
	{[]string{"games/grizzled", "games/werewolf", "game/gametest"}, []string{"game"}},
	{[]string{"game/sim"}, nil},
	{[]string{"games/grizzled/grizzbot"}, []string{"game", "games/grizzled", "game/sim"}},
	{[]string{"games/werewolf/wolfbot"}, []string{"game", "game/sim", "games/werewolf"}},
	{[]string{"clock", "codes", "logredact"}, nil},
	{[]string{"clock/clocktest", "logthrottle"}, []string{"clock"}},
	{[]string{"sanitize"}, []string{"words", "x/text"}},
	{[]string{"sanitize/internal/mkconfusables"}, nil},
	{[]string{"hostkeys"}, []string{"x/crypto"}},
	{[]string{"i18n"}, []string{"game", "go-i18n", "toml", "x/text"}},
	{[]string{"games/grizzled/catalog", "games/werewolf/catalog"}, []string{"i18n"}},
	{[]string{"table"}, []string{"clock", "codes", "game"}},
	{[]string{"persistence"}, []string{"game", "table", "bbolt"}},
	{[]string{"persistence/storetest"}, []string{"game", "persistence"}},
	{[]string{"persistence/jetstream"}, []string{"persistence", "nats.go"}},
	{[]string{"cluster/natsnode"}, []string{"nats-server", "nats.go", "x/crypto"}},
	{[]string{"cluster/natsnode/natstest"}, []string{"cluster/natsnode"}},
	{[]string{"cluster/remote"}, []string{"game", "table", "nats.go"}},
	{[]string{"cluster/lease"}, []string{"clock", "nats.go"}},
	{[]string{"cluster/adminbus"}, []string{"nats.go"}},
	{[]string{"moderation"}, []string{"clock", "persistence", "sanitize", "words"}},
	{[]string{"access"}, []string{"clock", "codes", "i18n", "persistence", "sanitize", "words", "x/crypto"}},
	{[]string{"metrics"}, []string{"prometheus"}},
	{[]string{"sshserver"}, []string{"codes", "hostkeys", "i18n", "logredact", "sanitize", "words",
		"bubbletea", "charmbracelet/ssh", "lipgloss", "termenv", "wish", "x/ansi", "x/crypto", "x/time"}},
	{[]string{"sshserver/porch"}, []string{"sshserver", "charmbracelet/ssh"}},
	{[]string{"sshserver/sshtest"}, []string{"sshserver/sshtest/vterm", "x/crypto"}},
	{[]string{"sshserver/sshtest/vterm"}, []string{"x/ansi"}},
	{[]string{"tui/uikit"}, []string{"game", "i18n", "table",
		"bubbles", "bubbletea", "lipgloss", "termenv", "x/ansi", "x/text"}},
	{[]string{"games/grizzled/grizzledui"}, []string{"game", "games/grizzled", "games/grizzled/catalog", "games/grizzled/grizzbot", "i18n", "table", "tui/uikit",
		"bubbles", "bubbletea", "x/ansi"}},
	{[]string{"games/werewolf/werewolfui"}, []string{"game", "games/werewolf", "games/werewolf/catalog", "table", "tui/uikit", "bubbles", "bubbletea"}},
	{[]string{"tui/frames"}, []string{"tui/uikit", "bubbletea"}},
	{[]string{"tui"}, []string{"clock", "game", "i18n", "sanitize", "table", "tui/frames", "tui/uikit",
		"bubbles", "bubbletea", "lipgloss", "termenv", "x/ansi"}},
	{[]string{"tui/plain"}, []string{"game", "i18n", "sanitize", "table", "tui", "tui/uikit"}},
	{[]string{"games"}, []string{"game", "games/grizzled", "games/grizzled/grizzbot", "games/werewolf", "games/werewolf/wolfbot",
		"tui", "games/grizzled/grizzledui", "tui/uikit", "games/werewolf/werewolfui"}},
	{[]string{"server/joinline"}, nil},
	{[]string{"server/live"}, []string{"sshserver", "tui"}},
	{[]string{"server/people"}, []string{"game", "moderation", "persistence", "table", "tui"}},
	{[]string{"server/records"}, []string{"codes", "game", "i18n", "persistence", "sanitize", "table", "tui"}},
	{[]string{"server/reviews"}, []string{"game", "persistence", "table", "tui", "tui/uikit"}},
	{[]string{"server/commands"}, []string{"game", "i18n", "persistence", "sanitize", "server/joinline",
		"server/people", "sshserver", "table", "tui", "tui/uikit", "charmbracelet/ssh"}},
	{[]string{"server/admin"}, []string{"access", "cluster/adminbus", "game", "i18n", "moderation", "persistence",
		"sanitize", "server/commands", "server/joinline", "server/live", "sshserver", "table", "tui", "tui/plain",
		"charmbracelet/ssh", "x/time"}},
	{[]string{"server"}, []string{"access", "clock", "cluster/adminbus", "cluster/lease", "cluster/natsnode",
		"cluster/remote", "codes", "game", "games", "hostkeys", "i18n", "logredact", "logthrottle", "metrics",
		"moderation", "persistence", "persistence/jetstream", "sanitize", "server/admin", "server/commands",
		"server/joinline", "server/live", "server/people", "server/records", "server/reviews", "sshserver", "table", "tui",
		"tui/plain", "bubbletea", "charmbracelet/ssh", "nats.go", "wish"}},
	{[]string{"cmd/bivouac"}, []string{"access", "clock", "cluster/natsnode", "games/grizzled", "games/grizzled/grizzbot",
		"game/sim", "games/werewolf/wolfbot", "hostkeys", "persistence", "server", "server/joinline", "sshserver", "sshserver/porch"}},
	{[]string{"cmd/bivouac-load"}, []string{"cluster/lease", "cluster/natsnode", "persistence", "persistence/jetstream",
		"sshserver/sshtest/vterm", "bubbletea", "charmbracelet/ssh", "lipgloss", "nats.go", "termenv",
		"wish", "x/crypto"}},
}

// debts are imports that break a rule the project means to keep, each
// allowed here by name until the work that removes it lands. The test fails
// when one is paid, so its line goes with it; never add one to let new
// code in.
var debts = []struct{ from, imports, why string }{
	// Issue 31 item 3: tui should not touch SSH; App takes window sizes
	// as ssh.Window where a type of its own would do.
	{"tui", "charmbracelet/ssh", "issue 31 item 3: tui takes ssh.Window for window sizes"},
}

// thirdParty names the modules outside this one that code may import: a
// short name (as the table writes it) for a module path, which covers the
// module's packages too.
var thirdParty = map[string]string{
	"bbolt":             "go.etcd.io/bbolt",
	"bubbles":           "github.com/charmbracelet/bubbles",
	"bubbletea":         "github.com/charmbracelet/bubbletea",
	"charmbracelet/ssh": "github.com/charmbracelet/ssh",
	"go-i18n":           "github.com/nicksnyder/go-i18n/v2",
	"lipgloss":          "github.com/charmbracelet/lipgloss",
	"nats-server":       "github.com/nats-io/nats-server/v2",
	"nats.go":           "github.com/nats-io/nats.go",
	"prometheus":        "github.com/prometheus/client_golang",
	"termenv":           "github.com/muesli/termenv",
	"toml":              "github.com/BurntSushi/toml",
	"wish":              "github.com/charmbracelet/wish",
	"x/ansi":            "github.com/charmbracelet/x/ansi",
	"x/crypto":          "golang.org/x/crypto",
	"x/text":            "golang.org/x/text",
	"x/time":            "golang.org/x/time",
}

// TestEveryPackageImportsOnlyWhatItsRowAllows checks each package's code
// (not its tests) against rules, with one go list of the whole module, and
// that docs/ARCHITECTURE.md's table has the same rows and README's layout
// names every package.
func TestEveryPackageImportsOnlyWhatItsRowAllows(t *testing.T) {
	allowed := allowedImports(t)
	owed := map[int]bool{} // debts still in the code
	pkgs := listModule(t)
	for _, p := range pkgs {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if len(p.GoFiles) == 0 {
			continue // only tests: nothing of its own to import
		}
		may, ok := allowed[name]
		if !ok {
			t.Errorf("package %s has no row: add one to rules in imports_test.go, a line to the table in docs/ARCHITECTURE.md and one to README's layout", name)
			continue
		}
		for _, imp := range p.Imports {
			if standard(imp) || slices.ContainsFunc(may, func(m string) bool { return covers(m, imp) }) {
				continue
			}
			if i := debtFor(name, imp); i >= 0 {
				owed[i] = true
				continue
			}
			t.Errorf("%s imports %s, which its row does not allow: drop the import, or change the row in imports_test.go and docs/ARCHITECTURE.md together", name, imp)
		}
	}
	for i, d := range debts {
		if !owed[i] {
			t.Errorf("%s no longer imports %s: remove that debt from imports_test.go and docs/ARCHITECTURE.md", d.from, d.imports)
		}
	}
	t.Run("ARCHITECTURE table", checkArchitectureTable)
	t.Run("README layout", func(t *testing.T) { checkReadmeLayout(t, pkgs) })
}

// allowedImports turns rules into each package's list of import paths (or
// path prefixes), after checking that every name in the table is known.
func allowedImports(t *testing.T) map[string][]string {
	rowOf := map[string]int{}
	for i, r := range rules {
		for _, p := range r.packages {
			if j, dup := rowOf[p]; dup {
				t.Fatalf("%s has two rows (%d and %d)", p, j, i)
			}
			rowOf[p] = i
		}
	}
	pathOf := func(name string) string {
		if mod, ok := thirdParty[name]; ok {
			return mod
		}
		if _, ok := rowOf[name]; !ok {
			t.Errorf("%q is neither a package with a row nor in thirdParty", name)
		}
		return module + "/" + name
	}
	allowed := map[string][]string{}
	for _, r := range rules {
		var paths []string
		for _, m := range r.mayImport {
			paths = append(paths, pathOf(m))
		}
		for _, p := range r.packages {
			allowed[p] = paths
		}
	}
	for _, d := range debts {
		pathOf(d.from)
		pathOf(d.imports)
	}
	return allowed
}

// debtFor is the index in debts of the import from → imp, or -1.
func debtFor(from, imp string) int {
	for i, d := range debts {
		want := module + "/" + d.imports
		if mod, ok := thirdParty[d.imports]; ok {
			want = mod
		}
		if d.from == from && covers(want, imp) {
			return i
		}
	}
	return -1
}

// covers says whether an allowance names imp: a module package exactly, a
// third-party module with all its packages.
func covers(allowance, imp string) bool {
	if strings.HasPrefix(allowance, module+"/") {
		return imp == allowance
	}
	return imp == allowance || strings.HasPrefix(imp, allowance+"/")
}

// standard says whether an import path is the standard library's: its
// first element has no dot, and it is not this module.
func standard(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".") && first != module
}

type listedPackage struct {
	ImportPath string
	GoFiles    []string
	Imports    []string
}

// listModule asks the go tool once for every package of the module.
func listModule(t *testing.T) []listedPackage {
	cmd := exec.Command("go", "list", "-json=ImportPath,GoFiles,Imports", "./...")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("no go tool to ask: %v", err)
	}
	var pkgs []listedPackage
	for dec := json.NewDecoder(out); ; {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list named only %d packages", len(pkgs))
	}
	return pkgs
}

// checkArchitectureTable reads the table in the Packages section of
// docs/ARCHITECTURE.md and wants the same rows as rules: the packages in the first column, what
// they may import in the third (each name in backquotes; "standard library
// only" for an empty row).
func checkArchitectureTable(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n## Packages\n")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows [][]string
	for line := range strings.Lines(section) {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 3 {
			t.Errorf("ARCHITECTURE.md: table row with %d cells, want 3: %s", len(cells), line)
			continue
		}
		rows = append(rows, cells)
	}
	inDoc := map[string]string{} // packages → the may-import cell
	for _, cells := range rows {
		inDoc[strings.Join(quoted(cells[0]), ", ")] = cells[2]
	}
	for _, r := range rules {
		key := strings.Join(r.packages, ", ")
		cell, ok := inDoc[key]
		if !ok {
			t.Errorf("ARCHITECTURE.md's package table has no row for %s (as rules groups them)", key)
			continue
		}
		delete(inDoc, key)
		if got := quoted(cell); !slices.Equal(sorted(got), sorted(r.mayImport)) {
			t.Errorf("ARCHITECTURE.md says %s may import %v, rules says %v", key, got, r.mayImport)
		}
		if len(r.mayImport) == 0 && !strings.Contains(cell, "standard library only") {
			t.Errorf("ARCHITECTURE.md's row for %s should say \"standard library only\"", key)
		}
	}
	for key := range inDoc {
		t.Errorf("ARCHITECTURE.md's package table has a row for %s, which rules has not", key)
	}
}

// checkReadmeLayout wants README's Layout block to give each top-level
// directory (each command under cmd/) a line of its own and to name every
// package below it.
func checkReadmeLayout(t *testing.T, pkgs []listedPackage) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, _ := strings.Cut(string(readme), "\n## Layout\n")
	layout, _, _ = strings.Cut(layout, "\n## ")
	for _, p := range pkgs {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if name == "" {
			continue
		}
		top, _, _ := strings.Cut(name, "/")
		if top == "cmd" {
			top = name
		}
		if !strings.Contains(layout, "\n"+top+"/ ") {
			t.Errorf("README's Layout has no line for %s/ (package %s)", top, name)
		} else if !strings.Contains(layout, path.Base(name)) {
			t.Errorf("README's Layout does not name package %s", name)
		}
	}
}

// quoted is every `name` in a table cell, in order.
func quoted(cell string) []string {
	var names []string
	parts := strings.Split(cell, "`")
	for i := 1; i < len(parts); i += 2 {
		names = append(names, parts[i])
	}
	return names
}

func sorted(s []string) []string {
	return slices.Sorted(slices.Values(s))
}
