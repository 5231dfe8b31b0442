package game_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/bivouac-ssh/bivouac"

// TestRulesImportNothingButTheStandardLibrary keeps the rules pure: no
// package under game/, and no game's rules or bots (every package of
// games/ID but its screens, games/ID/IDui, and its words,
// games/ID/catalog), may depend on the table actor, the terminal UI,
// storage, the SSH server, or anything outside the standard library,
// game/ and the game's own pure packages (which is where clocks, sockets
// and files would come from), but for package words, the messages they
// speak in (itself standard library only, which this checks too). It asks
// the go tool for each package's full dependency list.
func TestRulesImportNothingButTheStandardLibrary(t *testing.T) {
	roots := []string{module + "/game/..."}
	for _, p := range goList(t, module+"/games/...") {
		if pure(p.ImportPath) {
			roots = append(roots, p.ImportPath)
		}
	}
	if len(roots) < 3 {
		t.Fatalf("only %d roots: %v", len(roots), roots)
	}
	seen := 0
	for _, p := range goList(t, append([]string{"-deps"}, roots...)...) {
		seen++
		if p.Standard || p.ImportPath == module+"/game" || p.ImportPath == module+"/words" ||
			strings.HasPrefix(p.ImportPath, module+"/game/") || pure(p.ImportPath) {
			continue
		}
		t.Errorf("a rules package depends on %s", p.ImportPath)
	}
	if seen < 5 {
		t.Fatalf("go list named only %d packages", seen)
	}
}

// pure says whether a package of games/ is a game's rules or bots: below
// a game's folder, neither its screens (IDui) nor its words (catalog).
func pure(path string) bool {
	rest, ok := strings.CutPrefix(path, module+"/games/")
	if !ok {
		return false
	}
	id, below, _ := strings.Cut(rest, "/")
	return id != "" && below != "catalog" && !strings.HasPrefix(below, id+"ui")
}

type listed struct {
	ImportPath string
	Standard   bool
}

// goList asks the go tool about packages.
func goList(t *testing.T, args ...string) []listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Standard"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("no go tool to ask: %v", err)
	}
	var pkgs []listed
	for dec := json.NewDecoder(out); ; {
		var p listed
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
	return pkgs
}
