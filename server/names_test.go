package server

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

func TestNameBookKeepsNamesApart(t *testing.T) {
	t.Parallel()
	var b nameBook
	if got := b.login("fp-ann", "Ann"); got != "Ann" {
		t.Fatalf("first login as Ann got %q", got)
	}
	for _, lookalike := range []string{"ann", "Аnn", "A.nn", "ÁNN"} { // the second has a Cyrillic А
		if got := b.login("fp-mallory", lookalike); strings.EqualFold(got, lookalike) || !strings.ContainsAny(got[len(got)-1:], "0123456789") {
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

// Issue 36 item 7: look-alikes of a taken name, of a bot's, and names
// that speak for the server were accepted.
func TestLookAlikesAndReservedNamesAreRefused(t *testing.T) {
	t.Parallel()
	b := nameBook{reserved: newReservedNames()}
	b.login("fp-alice", "alice")
	for _, n := range []string{"ɑlice", "Ꭺlice", "ᴀlice", "alicᥱ"} {
		if err := b.Rename("fp-mallory", "Mallory", n); err == nil {
			t.Errorf("rename to %q allowed while alice is online", n)
		}
	}
	reserved := []string{"Bruno", "Brunօ", "bruno", "admin", "Admin_Bob", "ADMINS", "ɑdmin", "Notice from admins",
		"Notice from the admins", "Mitteilung der Admins", "Объявление", "админ", "Администратор", "Komunikat",
		"moderator", "Ada bot", "Ada (bot)", "Greta (бот)", "server", "Serwer"}
	for _, n := range reserved {
		err := b.Rename("fp-mallory", "Mallory", n)
		if err == nil {
			t.Errorf("rename to %q allowed", n)
			continue
		}
		if !errors.Is(err, errReservedName) {
			t.Errorf("rename to %q: %v, want the reserved-name refusal", n, err)
		}
	}
	for _, n := range []string{"Brunhilde", "Adam", "Adrian", "Badminton", "Noticed", "Kasiaaa", "Hugo M", "Modesto",
		"Serena", "Ola", "Robert", "Rosalind", "Саша", "Moderna"} {
		if err := b.Rename("fp-mallory", "Mallory", n); err != nil {
			t.Errorf("ordinary name %q refused: %v", n, err)
		}
	}
}

// Over SSH: logging in as a bot's look-alike gives a name of the server's,
// said on screen with why.
func TestAReservedLoginNameIsReplacedAndSaid(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithUser("Brunօ"))
	c.ExpectScreen(t, `Your login name Brunօ cannot be your name here \(the name Brunօ is kept for the`, 5*time.Second)
	c.ExpectScreen(t, `so you are guest-`, 5*time.Second)
}

// Issue 36 item 4: every guest name was held 30 days, the cap did not
// apply to recent names (60,000 guest logins: 31 MB), and a numbered
// name was found by trying ann2, ann3… under the lock every login takes.
func TestNameBookIsBoundedAndNumbersInConstantTime(t *testing.T) {
	t.Parallel()
	var b nameBook
	b.login("fp-ann", "ann") // online throughout
	for i := range 3000 {
		id := fmt.Sprint("guest:", i)
		if got, want := b.login(id, "ann"), fmt.Sprint("ann", i+2); got != want {
			t.Fatalf("login %d as ann: %q, want %q", i, got, want)
		}
		b.logout(id)
	}
	if n := b.next[sanitize.Fold("ann")]; n != 3002 {
		t.Errorf("the next variant of ann tries %d first, want 3002", n)
	}
	// Full: the offline names whose hold ends first go, never an online one.
	for i := range nameBookMax {
		id := fmt.Sprint("guest:x", i)
		b.login(id, fmt.Sprint("g", i))
		b.logout(id)
	}
	if n := len(b.by); n > nameBookMax {
		t.Errorf("%d names held, at most %d", n, nameBookMax)
	}
	if b.expiring.Len() != len(b.by)-1 {
		t.Errorf("%d offline names in the heap, %d held", b.expiring.Len(), len(b.by))
	}
	if h := b.by[sanitize.Fold("ann")]; h == nil || h.id != "fp-ann" {
		t.Fatal("an online player's name was forgotten")
	}
	if _, ok := b.by[sanitize.Fold("ann2")]; ok {
		t.Error("the oldest offline name was kept while the book was full")
	}
}

// A guest's name is held only while the guest can still come back with
// their code; a key's for nameHeld.
func TestAGuestsNameIsHeldWhileItCanBeReclaimed(t *testing.T) {
	t.Parallel()
	var b nameBook
	b.login("guest:abc", "Zoe")
	b.login("SHA256:key", "Yann")
	b.logout("guest:abc")
	b.logout("SHA256:key")
	later := time.Now().Add(guestNameHeld + time.Hour)
	if b.taken("fp-other", "Zoe", later) {
		t.Errorf("a guest's name is held %v after they left; their code works %v", guestNameHeld+time.Hour, guestNameHeld)
	}
	if !b.taken("fp-other", "Yann", later) {
		t.Error("a key holder's name was freed with the guests'")
	}
	b.mu.Lock()
	b.forget(later)
	n := len(b.by)
	b.mu.Unlock()
	if n != 1 {
		t.Errorf("%d names kept once the guest's hold ended, want 1", n)
	}
}

// One more login as a name 20,000 others hold as numbered variants: it
// was 30 ms of CPU under the book's lock (issue 36 item 4).
func BenchmarkNameBookLoginUnderATakenName(b *testing.B) {
	var book nameBook
	for i := range 20000 {
		book.login(fmt.Sprint("guest:", i), "ann")
	}
	b.ResetTimer()
	for i := range b.N {
		id := fmt.Sprint("guest:b", i)
		book.login(id, "ann")
		book.logout(id)
	}
}
