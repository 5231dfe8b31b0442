package game_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestRulesImportNothingButTheStandardLibrary keeps the rules pure: no
// package under game/, and no game's rules or bots (games/ID and its
// packages but its screens, games/ID/IDui), may depend on the table actor,
// the terminal UI, storage, the SSH server, or anything outside the
// standard library and game/ (which is where clocks, sockets and files
// would come from), but for package words, the messages they speak in
// (itself standard library only, which this checks too). It asks the go
// tool for each package's full dependency list.
func TestRulesImportNothingButTheStandardLibrary(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,ForTest", "github.com/bivouac-ssh/bivouac/game/...",
		"github.com/bivouac-ssh/bivouac/games/grizzled", "github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot",
		"github.com/bivouac-ssh/bivouac/games/werewolf", "github.com/bivouac-ssh/bivouac/games/werewolf/wolfbot")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("no go tool to ask: %v", err)
	}
	dec := json.NewDecoder(out)
	seen := 0
	for {
		var p struct {
			ImportPath string
			Standard   bool
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		if p.Standard || p.ImportPath == "github.com/bivouac-ssh/bivouac/game" || p.ImportPath == "github.com/bivouac-ssh/bivouac/words" ||
			strings.HasPrefix(p.ImportPath, "github.com/bivouac-ssh/bivouac/game/") ||
			strings.HasPrefix(p.ImportPath, "github.com/bivouac-ssh/bivouac/games/") && !strings.HasSuffix(p.ImportPath, "ui") {
			continue
		}
		t.Errorf("a rules package depends on %s", p.ImportPath)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if seen < 5 {
		t.Fatalf("go list named only %d packages", seen)
	}
}
