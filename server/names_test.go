package server

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

func TestNameBookKeepsNamesApart(t *testing.T) {
	t.Parallel()
	var b nameBook
	if got := b.login("fp-ann", "Ann"); got != "Ann" {
		t.Fatalf("first login as Ann got %q", got)
	}
	for _, lookalike := range []string{"ann", "Аnn", "A.nn", "ÁNN"} { // the second has a Cyrillic А
		if got := b.login("fp-mallory", lookalike); strings.EqualFold(got, lookalike) || !strings.HasSuffix(got, "2") {
			t.Errorf("%q while Ann is online: got %q, want a numbered variant", lookalike, got)
		}
		b.logout("fp-mallory")
	}
	if err := b.Rename("fp-bob", "Bob", "аnn"); err == nil {
		t.Error("a rename to a look-alike of an online player's name was allowed")
	}
	if got := b.login("fp-ann", "Ann"); got != "Ann" {
		t.Errorf("Ann's second session got %q", got)
	}
	long := strings.Repeat("ж", 20)
	b.login("fp-1", long)
	if got := b.login("fp-2", long); got != strings.Repeat("ж", 19)+"2" {
		t.Errorf("a numbered variant of a 20-rune name: %q", got)
	}
	// A name stays its player's after they leave, for a while.
	b.logout("fp-ann")
	b.logout("fp-ann")
	if err := b.Rename("fp-bob", "Bob", "ANN"); err == nil {
		t.Error("Ann's name was free the moment she left")
	}
	b.mu.Lock()
	b.by["ann"].seen = time.Now().Add(-nameHeld - time.Hour)
	b.mu.Unlock()
	if err := b.Rename("fp-bob", "Bob", "Ann"); err != nil {
		t.Errorf("a name unused for longer than %v is still held: %v", nameHeld, err)
	}
}

// Over SSH: a second player logging in as alice is someone else's alice,
// said so on screen, and may not rename into a look-alike (issue 12 item 9).
func TestLookAlikeNamesAreRefusedOverSSH(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	alice.ExpectScreen(t, `alice`, 5*time.Second)
	other := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	other.ExpectScreen(t, `Another player goes by alice, so you are alice2 here`, 5*time.Second)
	other.Type("r")
	other.ExpectScreen(t, `>`, 5*time.Second)
	other.Type("\x15Аlice\r") // ctrl+u clears the field; a Cyrillic А
	other.ExpectScreen(t, `the name Аlice is taken by another player`, 5*time.Second)
}

// A key whose login name cannot be a player's name (over 20 characters)
// is told why it plays under another, and r refuses a name too long with
// the reason instead of cutting it where typing stopped (issue 30 item 7).
func TestALoginNameTooLongIsSaidNotSilentlyReplaced(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	long := sshtest.Dial(t, addr, sshtest.WithUser("Maximilian-Alexander-Humboldt"))
	long.ExpectScreen(t, `cannot be your name here`, 5*time.Second)
	long.ExpectScreen(t, `longer than 20`, 5*time.Second)
	long.Type("r")
	long.ExpectScreen(t, `>`, 5*time.Second)
	long.Type("\x15Wilhelmina-Karolina-Eleonora\r") // ctrl+u clears the field; 28 characters
	long.ExpectScreen(t, `(?m)^\s*name must be 1–20 letters`, 5*time.Second)
	long.Type("r") // the field starts from the name kept: still the one given
	long.ExpectScreen(t, `> guest-`, 5*time.Second)
}
