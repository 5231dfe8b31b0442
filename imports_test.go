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
// package of this module ("tui/uikit"), a third-party name from
// thirdParty ("bubbletea"), or a pattern of every game's packages: ID
// stands for a game's ID, the name of its folder under games/
// ("games/ID/IDui" is every game's module), and "/..." for every package
// below ("games/ID/..."). In a row of a game's packages, ID in what they
// may import is that game (a game's packages import none of another's);
// elsewhere it is any game. A package's row is the first that names it
// exactly, else the first whose pattern it matches: so a new game needs
// no row. An empty mayImport means standard library only.
type importRule struct {
	packages  []string
	mayImport []string
}

// rules is the table, row for row as docs/ARCHITECTURE.md writes it.
var rules = []importRule{
	{[]string{"words"}, nil},
	{[]string{"game"}, []string{"words"}},
	{[]string{"game/gametest"}, []string{"game"}},
	{[]string{"game/sim"}, []string{"game"}},
	{[]string{"game/sim/simcmd"}, []string{"game/sim"}},
	{[]string{"clock", "codes", "heapx", "lastknown", "logredact"}, nil},
	{[]string{"clock/clocktest", "logthrottle"}, []string{"clock"}},
	{[]string{"sanitize"}, []string{"words", "x/text"}},
	{[]string{"sanitize/internal/mkconfusables"}, nil},
	{[]string{"hostkeys"}, []string{"x/crypto"}},
	{[]string{"i18n"}, []string{"game", "go-i18n", "toml", "x/text"}},
	{[]string{"table"}, []string{"clock", "codes", "game"}},
	{[]string{"table/tabletest"}, []string{"table"}},
	{[]string{"persistence"}, []string{"game", "table", "bbolt"}},
	{[]string{"persistence/storetest"}, []string{"game", "persistence", "table", "table/tabletest"}},
	{[]string{"persistence/jetstream"}, []string{"persistence", "nats.go"}},
	{[]string{"cluster/natsnode"}, []string{"nats-server", "nats.go", "x/crypto"}},
	{[]string{"cluster/natsnode/natstest"}, []string{"cluster/natsnode"}},
	{[]string{"cluster/remote"}, []string{"game", "table", "nats.go"}},
	{[]string{"cluster/lease"}, []string{"clock", "nats.go"}},
	{[]string{"cluster/adminbus"}, []string{"nats.go"}},
	{[]string{"cluster/playerbus"}, []string{"nats.go"}},
	{[]string{"notice"}, []string{"words"}},
	{[]string{"presence"}, []string{"words"}},
	{[]string{"playnow"}, []string{"table"}},
	{[]string{"friends"}, []string{"notice", "persistence", "words", "x/time"}},
	{[]string{"moderation"}, []string{"clock", "persistence", "sanitize", "words"}},
	{[]string{"access"}, []string{"clock", "codes", "i18n", "lastknown", "persistence", "sanitize", "words", "x/crypto"}},
	{[]string{"metrics"}, []string{"prometheus"}},
	{[]string{"notify"}, []string{"clock", "heapx", "words", "x/time"}},
	{[]string{"sshserver"}, []string{"codes", "hostkeys", "i18n", "logredact", "sanitize", "words",
		"bubbletea", "charmbracelet/ssh", "lipgloss", "termenv", "wish", "x/ansi", "x/crypto", "x/sys", "x/time"}},
	{[]string{"sshserver/porch"}, []string{"sshserver", "charmbracelet/ssh"}},
	{[]string{"sshserver/sshtest"}, []string{"sshserver/sshtest/vterm", "x/crypto"}},
	{[]string{"sshserver/sshtest/vterm"}, []string{"x/ansi"}},
	{[]string{"tui/uikit"}, []string{"game", "game/sim", "i18n", "table",
		"bubbles", "bubbletea", "lipgloss", "termenv", "x/ansi", "x/text"}},
	{[]string{"tui/uikit/screentest"}, []string{"game", "i18n", "table", "tui/uikit", "bubbletea", "lipgloss", "termenv",
		"toml", "x/ansi"}},
	{[]string{"tui/frames"}, []string{"tui/uikit", "bubbletea"}},
	{[]string{"tui"}, []string{"clock", "game", "i18n", "notice", "playnow", "presence", "sanitize", "table", "tui/frames", "tui/uikit",
		"bubbles", "bubbletea", "lipgloss", "termenv", "x/ansi"}},
	{[]string{"tui/plain"}, []string{"game", "i18n", "notice", "playnow", "sanitize", "table", "tui", "tui/uikit"}},
	{[]string{"games/ID/catalog"}, []string{"i18n"}},
	{[]string{"games/ID/IDui"}, []string{"game", "game/sim", "games/ID", "games/ID/...", "i18n", "table", "tui/uikit", "words",
		"bubbles", "bubbletea", "lipgloss", "x/ansi"}},
	{[]string{"games/ID", "games/ID/..."}, []string{"game", "game/sim", "game/sim/simcmd", "games/ID", "games/ID/...", "words"}},
	{[]string{"games"}, []string{"games/ID/IDui", "tui"}},
	{[]string{"server/joinline"}, nil},
	{[]string{"server/live"}, []string{"sshserver", "tui"}},
	{[]string{"server/people"}, []string{"friends", "game", "moderation", "persistence", "presence", "table", "tui"}},
	{[]string{"server/records"}, []string{"codes", "game", "i18n", "persistence", "sanitize", "table", "tui", "tui/uikit"}},
	{[]string{"server/reviews"}, []string{"game", "persistence", "table", "tui", "tui/uikit"}},
	{[]string{"server/commands"}, []string{"game", "i18n", "persistence", "presence", "sanitize", "server/joinline",
		"server/people", "sshserver", "table", "tui", "tui/uikit", "charmbracelet/ssh"}},
	{[]string{"server/admin"}, []string{"access", "cluster/adminbus", "game", "i18n", "moderation", "persistence",
		"sanitize", "server/commands", "server/joinline", "server/live", "sshserver", "table", "tui", "tui/plain",
		"charmbracelet/ssh", "x/time"}},
	{[]string{"server/node"}, []string{"cluster/adminbus", "cluster/lease", "cluster/natsnode", "cluster/playerbus",
		"cluster/remote", "game", "persistence", "persistence/jetstream", "server/live", "table", "tui", "nats.go"}},
	{[]string{"server"}, []string{"access", "clock", "cluster/playerbus", "codes", "friends", "game", "games", "heapx", "hostkeys", "i18n",
		"lastknown", "logredact", "logthrottle", "metrics", "moderation", "notice", "notify", "persistence", "presence", "sanitize", "server/admin",
		"server/commands", "server/joinline", "server/live", "server/node", "server/people", "server/records",
		"server/reviews", "sshserver", "sshserver/porch", "table", "tui", "tui/plain", "tui/uikit", "bubbletea", "charmbracelet/ssh",
		"wish"}},
	{[]string{"cmd/bivouac"}, []string{"access", "clock", "cluster/natsnode", "game/sim/simcmd", "games", "i18n", "notify", "server",
		"server/node", "sshserver", "words"}},
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
	"x/sys":             "golang.org/x/sys",
	"x/text":            "golang.org/x/text",
	"x/time":            "golang.org/x/time",
}

// TestEveryPackageImportsOnlyWhatItsRowAllows checks each package's code
// (not its tests) against rules, with one go list of the whole module, and
// that docs/ARCHITECTURE.md's table has the same rows and README's layout
// names every package.
func TestEveryPackageImportsOnlyWhatItsRowAllows(t *testing.T) {
	checkRules(t)
	owed := map[int]bool{} // debts still in the code
	pkgs := listModule(t)
	for _, p := range pkgs {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if len(p.GoFiles) == 0 {
			continue // only tests: nothing of its own to import
		}
		row := rowOf(name)
		if row < 0 {
			t.Errorf("package %s has no row: add one to rules in imports_test.go, a line to the table in docs/ARCHITECTURE.md and one to README's layout", name)
			continue
		}
		for _, imp := range p.Imports {
			if standard(imp) || slices.ContainsFunc(rules[row].mayImport, func(m string) bool { return allows(m, name, imp) }) {
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

// checkRules checks the table itself: no package has two rows, every name
// a row may import is a package with a row or a third-party name, and no
// package outside the games imports a game's (the registry, games, puts
// them together; nothing generic names one).
func checkRules(t *testing.T) {
	seen := map[string]int{}
	for i, r := range rules {
		for _, p := range r.packages {
			if j, dup := seen[p]; dup {
				t.Fatalf("%s has two rows (%d and %d)", p, j, i)
			}
			seen[p] = i
		}
	}
	for _, r := range rules {
		for _, m := range r.mayImport {
			if _, third := thirdParty[m]; !third && rowOf(m) < 0 {
				t.Errorf("%q is neither a package with a row nor in thirdParty", m)
			}
			if !strings.HasPrefix(r.packages[0], "games") && strings.HasPrefix(m, "games/") {
				t.Errorf("%v may import %s: a package outside the games imports none of a game's, only the registry (games)", r.packages, m)
			}
		}
	}
	for _, d := range debts {
		if _, third := thirdParty[d.imports]; !third && rowOf(d.imports) < 0 || rowOf(d.from) < 0 {
			t.Errorf("debt %s → %s names a package with no row", d.from, d.imports)
		}
	}
}

// rowOf is the index in rules of the row of package name, or -1: the row
// that names it, else the first whose pattern it matches.
func rowOf(name string) int {
	for i, r := range rules {
		if slices.Contains(r.packages, name) {
			return i
		}
	}
	_, pattern := gameOf(name)
	for i, r := range rules {
		if slices.ContainsFunc(r.packages, func(p string) bool { return matches(p, pattern) }) {
			return i
		}
	}
	return -1
}

// gameOf is the game whose folder holds package name, and name with that
// game's ID written ID: "games/grizzled/grizzledui" is game "grizzled",
// "games/ID/IDui". A package outside every game's folder is game "", and
// its name as it is.
func gameOf(name string) (id, pattern string) {
	parts := strings.Split(name, "/")
	if len(parts) < 2 || parts[0] != "games" || parts[1] == "ID" {
		return "", name
	}
	id = parts[1]
	parts[1] = "ID"
	for i := 2; i < len(parts); i++ {
		if rest, ok := strings.CutPrefix(parts[i], id); ok {
			parts[i] = "ID" + rest
		}
	}
	return id, strings.Join(parts, "/")
}

// matches says whether a row's name covers a package written as pattern
// (gameOf): the same name, or a name ending in "/..." and a package below.
func matches(name, pattern string) bool {
	if prefix, ok := strings.CutSuffix(name, "/..."); ok {
		return strings.HasPrefix(pattern, prefix+"/")
	}
	return name == pattern
}

// allows says whether the allowance m of from's row lets from import imp:
// a third-party module with all its packages, a package of this module by
// its name, or by a pattern (in a game's row, ID is that same game).
func allows(m, from, imp string) bool {
	if mod, ok := thirdParty[m]; ok {
		return imp == mod || strings.HasPrefix(imp, mod+"/")
	}
	name, ok := strings.CutPrefix(imp, module+"/")
	if !ok {
		return false
	}
	if name == m {
		return true
	}
	id, pattern := gameOf(name)
	if fromID, _ := gameOf(from); id == "" || fromID != "" && fromID != id {
		return false
	}
	return matches(m, pattern)
}

// debtFor is the index in debts of the import from → imp, or -1.
func debtFor(from, imp string) int {
	for i, d := range debts {
		if d.from == from && allows(d.imports, from, imp) {
			return i
		}
	}
	return -1
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
		if id, _ := gameOf(name); name == "" || id != "" {
			continue // a game's packages are the games/ line's, by pattern (games/ID/…)
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
