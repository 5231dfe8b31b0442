package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// TestAStoredGameFromBeforeMessagesStillReplays opens a data directory
// written by the version before events carried message keys (a finished
// three-player Grizzled game, J6QQ, whose title and summary were stored as
// English text) and tells its story again: every line of the old replay,
// in English, and the same game in Polish.
func TestAStoredGameFromBeforeMessagesStillReplays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := os.ReadFile(filepath.Join("testdata", "v0-store", "bivouac.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bivouac.db"), db, 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(filepath.Join("testdata", "v0-store", "replay-J6QQ.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, addr := startServer(t, dir)

	en := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("replay J6QQ"))
	if status := en.Wait(t, 10*time.Second); status != 0 {
		t.Fatalf("replay exit %d:\n%s", status, string(en.Transcript()))
	}
	got := strings.Split(strings.TrimSpace(string(en.Transcript())), "\n")
	want := strings.Split(strings.TrimSpace(string(old)), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, the old replay had %d:\n%s", len(got), len(want), string(en.Transcript()))
	}
	// The story is the same game: a line for the same move at every line
	// (the move number begins it), and most lines read word for word as
	// before (a turn is now "Turn: alice." where it was "alice's turn.").
	same := 0
	for i := range want {
		if got[i] == want[i] {
			same++
		}
		if g, w := strings.Fields(got[i]), strings.Fields(want[i]); len(g) != len(w) && (len(g) == 0 || len(w) == 0) || len(g) > 0 && len(w) > 0 && g[0] != w[0] {
			t.Errorf("line %d: %q, the old replay had %q", i+1, got[i], want[i])
		}
	}
	if same < len(want)/2 {
		t.Errorf("only %d of %d lines read as before:\n%s", same, len(want), string(en.Transcript()))
	}
	for _, line := range []string{
		"J6QQ · The Grizzled · standard · 3 players",
		"0  A new game of The Grizzled: standard variant, 25 cards in the trials pile, 34 in the morale reserve, 5 speech tokens.",
		"The team lost to morale in mission 9 (started with 25 trials).",
	} {
		if !strings.Contains(string(en.Transcript()), line) {
			t.Errorf("the replay lacks %q", line)
		}
	}

	pl := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithEnv("LANG", "pl_PL.UTF-8"), sshtest.WithCommand("replay J6QQ"))
	if status := pl.Wait(t, 10*time.Second); status != 0 {
		t.Fatalf("replay in Polish exit %d:\n%s", status, string(pl.Transcript()))
	}
	if strings.Contains(string(pl.Transcript()), "A new game of The Grizzled") || strings.Contains(string(pl.Transcript()), "The team lost to") {
		t.Errorf("the Polish replay has English narration:\n%s", string(pl.Transcript()))
	}
	if n := len(strings.Split(strings.TrimSpace(string(pl.Transcript())), "\n")); n != len(want) {
		t.Errorf("the Polish replay has %d lines, want %d", n, len(want))
	}
}
