package access

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/persistence"

	gossh "golang.org/x/crypto/ssh"
)

// listPolicy is a policy on an admins file holding root's key and an
// allowlist holding anna's, with a store; it records what OnChange heard.
func listPolicy(t *testing.T, shared bool) (p *Policy, dir, root, anna string, heard func() []string) {
	t.Helper()
	dir = t.TempDir()
	rootKey, rootLine := newKey(t, "root@box")
	annaKey, annaLine := newKey(t, "anna@laptop")
	writeFile(t, filepath.Join(dir, "admins"), "# operators\n"+rootLine+"\n")
	writeFile(t, filepath.Join(dir, "allow"), annaLine+"\n\n# friends end here\n")
	store, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var mu sync.Mutex
	var lists []string
	p, err = New(Config{AdminsFile: filepath.Join(dir, "admins"), AllowFile: filepath.Join(dir, "allow"), Store: store,
		Shared: shared, OnChange: func(l string) { mu.Lock(); lists = append(lists, l); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	heard = func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := lists
		lists = nil
		return out
	}
	return p, dir, gossh.FingerprintSHA256(rootKey), gossh.FingerprintSHA256(annaKey), heard
}

// An admin's change goes into the list's file, atomically, keeping its
// comments, and holds at once; the file is read back as the operator
// would read it.
func TestListChangesAreWrittenToTheFile(t *testing.T) {
	p, dir, root, anna, heard := listPolicy(t, false)
	bobKey, bobLine := newKey(t, "bob@desk")
	bob := gossh.FingerprintSHA256(bobKey)
	ch, err := p.AddKey(ListAllow, bobLine, root, "root")
	if err != nil || ch.Where != InFile || ch.Path != filepath.Join(dir, "allow") || ch.Fingerprint != bob {
		t.Fatalf("AddKey = %+v, %v", ch, err)
	}
	if e := p.KeyEntry(bob, ""); !e.Refused.IsZero() {
		t.Fatalf("bob, just allowed, is refused: %+v", e)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "allow"))
	if !strings.Contains(string(text), "# friends end here\n"+bobLine+"\n") {
		t.Errorf("the allowlist after adding bob:\n%s", text)
	}
	if _, err := p.AddKey(ListAllow, bobLine, root, "root"); !errors.Is(err, ErrOnList) {
		t.Errorf("adding bob twice: %v", err)
	}
	if got := heard(); len(got) != 1 || got[0] != ListAllow {
		t.Errorf("OnChange heard %v", got)
	}
	if _, err := p.RemoveKey(ListAllow, anna, root, "root"); err != nil {
		t.Fatal(err)
	}
	if p.Admits(anna) {
		t.Error("anna, taken off, still comes in")
	}
	text, _ = os.ReadFile(filepath.Join(dir, "allow"))
	if strings.Contains(string(text), "anna@laptop") || !strings.Contains(string(text), "# friends end here") {
		t.Errorf("the allowlist after taking anna off:\n%s", text)
	}
	if _, err := p.RemoveKey(ListAllow, anna, root, "root"); !errors.Is(err, ErrNotOnList) {
		t.Errorf("taking anna off twice: %v", err)
	}
	if _, err := p.AddKey(ListAllow, "ssh-ed25519 notbase64", root, "root"); !errors.Is(err, ErrNotAKey) {
		t.Errorf("a line that is no key: %v", err)
	}
	entries, _ := p.temp()
	if len(entries) != 0 {
		t.Errorf("temporary files left beside the lists: %v", entries)
	}

	// The admins: one more, then the last cannot go.
	if _, err := p.AddKey(ListAdmins, bobLine, root, "root"); err != nil || !p.IsAdmin(bob) {
		t.Fatalf("making bob an admin: %v", err)
	}
	if _, err := p.RemoveKey(ListAdmins, root, bob, "bob"); err != nil || p.IsAdmin(root) {
		t.Fatalf("taking root off: %v", err)
	}
	if _, err := p.RemoveKey(ListAdmins, bob, bob, "bob"); !errors.Is(err, ErrLastAdmin) {
		t.Errorf("taking the last admin off: %v", err)
	}
}

// temp lists files in the lists' directory that are not the lists.
func (p *Policy) temp() ([]string, error) {
	des, err := os.ReadDir(filepath.Dir(p.allow.Path()))
	var out []string
	for _, de := range des {
		if n := de.Name(); n != "admins" && n != "allow" {
			out = append(out, n)
		}
	}
	return out, err
}

// A file the server may not write (the hardened unit's read-only /etc)
// keeps its keys; the change is kept in the store and holds as well, and
// a later write to the file has the last word. A symlinked file is
// written where it points.
func TestListChangesToAReadOnlyFileGoToTheStore(t *testing.T) {
	p, dir, root, anna, _ := listPolicy(t, false)
	p.rewrite = func(string, func([][]byte) [][]byte) error { return fmt.Errorf("%w: test", errUnwritable) }
	before, _ := os.ReadFile(filepath.Join(dir, "allow"))
	bobKey, bobLine := newKey(t, "bob@desk")
	bob := gossh.FingerprintSHA256(bobKey)
	ch, err := p.AddKey(ListAllow, bobLine, root, "root")
	if err != nil || ch.Where != InStore || !ch.ReadOnly {
		t.Fatalf("AddKey to a read-only file = %+v, %v", ch, err)
	}
	if ch, err := p.RemoveKey(ListAllow, anna, root, "root"); err != nil || ch.Where != InStore {
		t.Fatalf("RemoveKey from a read-only file = %+v, %v", ch, err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "allow")); string(after) != string(before) {
		t.Errorf("the read-only file changed:\n%s", after)
	}
	if !p.Admits(bob) || p.Admits(anna) {
		t.Errorf("after the store's changes: bob admitted %v, anna %v", p.Admits(bob), p.Admits(anna))
	}
	if keys := p.ListKeys(ListAllow); len(keys) != 1 || keys[0].Fingerprint != bob || keys[0].Comment != "bob@desk" {
		t.Errorf("the allowlist reads %+v", keys)
	}
	// A restart reads the same.
	again, err := New(Config{AdminsFile: filepath.Join(dir, "admins"), AllowFile: filepath.Join(dir, "allow"), Store: p.store})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Admits(bob) || again.Admits(anna) {
		t.Error("the store's changes did not hold after a restart")
	}
	// Putting anna back takes the store's word back.
	if ch, err := p.AddKey(ListAllow, strings.Split(string(before), "\n")[0], root, "root"); err != nil || ch.Where != InStore || !p.Admits(anna) {
		t.Errorf("putting anna back: %+v, %v", ch, err)
	}

	// A symlinked list, writable: the change goes to the file it names.
	p.rewrite = rewriteKeyFile
	real := filepath.Join(t.TempDir(), "real-allow")
	writeFile(t, real, "")
	link := filepath.Join(dir, "allow")
	os.Remove(link)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	p.Reload()
	carlKey, carlLine := newKey(t, "")
	if ch, err := p.AddKey(ListAllow, carlLine, root, "root"); err != nil || ch.Where != InFile {
		t.Fatalf("AddKey through a symlink = %+v, %v", ch, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if !p.Admits(gossh.FingerprintSHA256(carlKey)) {
		t.Error("carl, written through the symlink, is not admitted")
	}
}

// On a node of a cluster every change goes to the store, which every
// node reads; another node's policy sees it at its next check.
func TestListChangesOnAClusterGoToTheStore(t *testing.T) {
	p, dir, root, _, _ := listPolicy(t, true)
	before, _ := os.ReadFile(filepath.Join(dir, "admins"))
	bobKey, bobLine := newKey(t, "bob@desk")
	bob := gossh.FingerprintSHA256(bobKey)
	other, err := New(Config{AdminsFile: filepath.Join(dir, "admins"), Store: p.store, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := p.AddKey(ListAdmins, bobLine, root, "root")
	if err != nil || ch.Where != InStore || ch.ReadOnly {
		t.Fatalf("AddKey on a cluster = %+v, %v", ch, err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "admins")); string(after) != string(before) {
		t.Error("a cluster node wrote its own admins file")
	}
	if other.IsAdmin(bob) {
		t.Fatal("the other node knew before it looked")
	}
	other.Check()
	if !other.IsAdmin(bob) {
		t.Error("the other node does not see the new admin after a check")
	}
}

// Without an allowlist there is none to change.
func TestListChangesNeedTheList(t *testing.T) {
	p, _ := invitePolicy(t)
	_, line := newKey(t, "")
	if _, err := p.AddKey(ListAllow, line, "SHA256:admin", "ada"); !errors.Is(err, ErrNoList) {
		t.Errorf("adding to an allowlist the server has not: %v", err)
	}
}

// watchedStore is a store that tells the key lists' changes (ListWatcher)
// through views, and counts the times they are read whole.
type watchedStore struct {
	persistence.AccessStore
	views chan []persistence.KeyListEntry
	reads *atomic.Int32
}

func (w watchedStore) WatchKeyListEntries(context.Context) (<-chan []persistence.KeyListEntry, error) {
	return w.views, nil
}

func (w watchedStore) KeyListEntries() ([]persistence.KeyListEntry, error) {
	w.reads.Add(1)
	return w.AccessStore.KeyListEntries()
}

// A node of a cluster follows the other nodes' changes to the key lists
// as its store's watch tells them, and does not read them all at each
// poll meanwhile (an idle cluster's every node did, every 2 s); when the
// watch ends, the polls read them again.
func TestListChangesAreFollowedByWatch(t *testing.T) {
	p, dir, _, _, _ := listPolicy(t, true)
	bobKey, bobLine := newKey(t, "bob@desk")
	bob := gossh.FingerprintSHA256(bobKey)
	w := watchedStore{AccessStore: p.store, views: make(chan []persistence.KeyListEntry), reads: new(atomic.Int32)}
	other, err := New(Config{AdminsFile: filepath.Join(dir, "admins"), Store: w, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	other.Watch()
	defer other.Close()
	w.views <- []persistence.KeyListEntry{{List: ListAdmins, Fingerprint: bob, Key: bobLine, By: "root"}}
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if !other.IsAdmin(bob) {
			return errors.New("the watched change does not hold")
		}
		return nil
	})
	reads := w.reads.Load()
	other.Check()
	if w.reads.Load() != reads {
		t.Error("a check read the key lists while the watch follows them")
	}
	close(w.views)
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		other.Check()
		if w.reads.Load() == reads {
			return errors.New("the checks do not read the store with the watch down")
		}
		return nil
	})
}
