package access

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/words"

	gossh "golang.org/x/crypto/ssh"
)

// Admins change the key lists from the console (`admin allow add KEY`,
// `admin admins remove NAME`…). A change is written back to the list's
// file, atomically (a temporary file beside it, synced, renamed over it),
// when the server may write there; otherwise it is kept in the store as
// a persistence.KeyListEntry that adds the key to the list, or takes it
// off whatever the file says. On a node of a cluster every change goes to
// the store, which every node reads: a file is one node's. The store's
// entries are read again every PollEvery, with the files.

// Lists an admin changes (persistence.ListAdmins, ListAllow).
const (
	ListAdmins = persistence.ListAdmins
	ListAllow  = persistence.ListAllow
)

// Where a change was kept.
const (
	InFile  = "file"
	InStore = "store"
)

// Change is what an admin's change to a list did.
type Change struct {
	List        string
	Fingerprint string
	Where       string // InFile or InStore
	Path        string // the file's path, for InFile
	// ReadOnly: the list's file could not be written (InStore on one node).
	ReadOnly bool
}

// Errors of list changes an admin reads.
var (
	ErrNoList       = words.NewError("access.list.no_list")    // no such file was named at start
	ErrOnList       = words.NewError("access.list.already")    // the key is on the list already
	ErrNotOnList    = words.NewError("access.list.not_on")     // nor is it there to take off
	ErrNotAKey      = words.NewError("access.list.not_a_key")  // the words are no public key
	ErrNoListsStore = words.NewError("access.list.no_store")   // the file is read-only and no store keeps changes
	ErrLastAdmin    = words.NewError("access.list.last_admin") // taking the last admin off
	errListUnknown  = errors.New("access: no such key list")   // a caller's mistake
	errUnwritable   = errors.New("access: the file is read-only")
)

// ParseKey reads a public key an admin pastes: one authorized_keys line
// (options before the key allowed, the comment kept).
func ParseKey(line string) (Key, string, error) {
	pk, comment, _, rest, err := gossh.ParseAuthorizedKey([]byte(strings.TrimSpace(line)))
	if err != nil || len(bytes.TrimSpace(rest)) > 0 {
		return Key{}, "", ErrNotAKey
	}
	k := Key{Fingerprint: gossh.FingerprintSHA256(pk), Type: pk.Type(), Comment: cleanComment(comment)}
	return k, strings.TrimSpace(string(gossh.MarshalAuthorizedKey(pk))), nil
}

// overrides are the store's entries, as last read.
type overrides struct {
	mu      sync.RWMutex
	entries map[string]map[string]persistence.KeyListEntry // list → fingerprint → entry
}

func (o *overrides) entry(list, fp string) (persistence.KeyListEntry, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	e, ok := o.entries[list][fp]
	return e, ok
}

// set replaces the entries; it reports whether they changed.
func (o *overrides) set(all []persistence.KeyListEntry) bool {
	m := map[string]map[string]persistence.KeyListEntry{}
	for _, e := range all {
		if m[e.List] == nil {
			m[e.List] = map[string]persistence.KeyListEntry{}
		}
		m[e.List][e.Fingerprint] = e
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	same := len(m) == len(o.entries)
	for list, es := range m {
		old := o.entries[list]
		same = same && len(old) == len(es)
		for fp, e := range es {
			same = same && old[fp] == e
		}
	}
	o.entries = m
	return !same
}

func (o *overrides) list(list string) []persistence.KeyListEntry {
	o.mu.RLock()
	defer o.mu.RUnlock()
	var out []persistence.KeyListEntry
	for _, e := range o.entries[list] {
		out = append(out, e)
	}
	persistence.SortKeyListEntries(out)
	return out
}

// onList reports whether fp is on list (its file and the store's entries).
func (p *Policy) onList(list string, f *KeyFile, fp string) bool {
	if e, ok := p.over.entry(list, fp); ok {
		return !e.Removed
	}
	return f.Has(fp)
}

// readOverrides reads the store's entries again; it reports whether they changed.
func (p *Policy) readOverrides() bool {
	if p.store == nil {
		return false
	}
	all, err := p.store.KeyListEntries()
	if err != nil {
		p.log.Warn("the key list changes kept in the store cannot be read: the last ones read stay in force", "err", err)
		return false
	}
	return p.over.set(all)
}

// ListKeys is the keys on list: those of its file an admin did not take
// off, then those admins added in the store.
func (p *Policy) ListKeys(list string) []Key {
	f, err := p.file(list)
	if err != nil {
		return nil
	}
	var out []Key
	for _, k := range f.Keys() {
		if p.onList(list, f, k.Fingerprint) {
			out = append(out, k)
		}
	}
	for _, e := range p.over.list(list) {
		if !e.Removed && !f.Has(e.Fingerprint) {
			k, _, err := ParseKey(e.Key)
			if err != nil {
				k = Key{Fingerprint: e.Fingerprint}
			}
			out = append(out, k)
		}
	}
	return out
}

func (p *Policy) file(list string) (*KeyFile, error) {
	switch list {
	case ListAdmins:
		return p.admins, nil
	case ListAllow:
		return p.allow, nil
	}
	return nil, errListUnknown
}

// AddKey puts the public key line (authorized_keys form) on list, by the
// admin of fingerprint by (named byName): into the list's file, or the
// store (see Change).
func (p *Policy) AddKey(list, line, by, byName string) (Change, error) {
	f, err := p.file(list)
	if err != nil {
		return Change{}, err
	}
	if f == nil {
		return Change{}, listMissing(list)
	}
	k, canonical, err := ParseKey(line)
	if err != nil {
		return Change{}, err
	}
	ch := Change{List: list, Fingerprint: k.Fingerprint}
	if p.onList(list, f, k.Fingerprint) {
		return ch, ErrOnList
	}
	text := canonical
	if k.Comment != "" {
		text += " " + k.Comment
	}
	entry := persistence.KeyListEntry{List: list, Fingerprint: k.Fingerprint, Key: text, By: by, ByName: byName,
		At: p.clock.Now().UTC()}
	if f.Has(k.Fingerprint) {
		// In the file and taken off in the store: putting it back is
		// taking the store's word back.
		return p.keepInStore(ch, entry, true)
	}
	if !p.cfg.Shared {
		err := p.rewrite(f.Path(), func(lines [][]byte) [][]byte {
			return append(lines, []byte(text))
		})
		if err == nil {
			return p.written(ch, f)
		}
		if !errors.Is(err, errUnwritable) {
			return ch, err
		}
		ch.ReadOnly = true
	}
	return p.keepInStore(ch, entry, false)
}

// RemoveKey takes the key of fingerprint fp off list (see AddKey).
// Taking the last admin off is refused: nobody could administer then.
func (p *Policy) RemoveKey(list, fp, by, byName string) (Change, error) {
	f, err := p.file(list)
	if err != nil {
		return Change{}, err
	}
	if f == nil {
		return Change{}, listMissing(list)
	}
	ch := Change{List: list, Fingerprint: fp}
	if !p.onList(list, f, fp) {
		return ch, ErrNotOnList
	}
	if list == ListAdmins && len(p.ListKeys(ListAdmins)) <= 1 {
		return ch, ErrLastAdmin
	}
	if !f.Has(fp) {
		return p.keepInStore(ch, persistence.KeyListEntry{}, true) // an entry added it: taking it back is enough
	}
	if !p.cfg.Shared {
		err := p.rewrite(f.Path(), func(lines [][]byte) [][]byte {
			return slices.DeleteFunc(lines, func(l []byte) bool { return lineKey(l) == fp })
		})
		if err == nil {
			return p.written(ch, f)
		}
		if !errors.Is(err, errUnwritable) {
			return ch, err
		}
		ch.ReadOnly = true
	}
	return p.keepInStore(ch, persistence.KeyListEntry{List: list, Fingerprint: fp, Removed: true, By: by, ByName: byName,
		At: p.clock.Now().UTC()}, false)
}

// written reads the file just written, so the change holds now, and drops
// any entry of the store about the key: the file has the last word.
func (p *Policy) written(ch Change, f *KeyFile) (Change, error) {
	ch.Where, ch.Path = InFile, f.Path()
	if err := f.Load(); err != nil {
		return ch, err
	}
	if p.store != nil {
		if err := p.store.DeleteKeyListEntry(ch.List, ch.Fingerprint); err != nil && !errors.Is(err, persistence.ErrNotFound) {
			return ch, err
		}
		p.readOverrides()
	}
	p.log.Info("key list changed", "list", ch.List, "key", ch.Fingerprint, "file", ch.Path)
	p.changed(ch.List)
	return ch, nil
}

// keepInStore keeps the change as the store's entry e, or with drop takes
// the store's entry about the key away.
func (p *Policy) keepInStore(ch Change, e persistence.KeyListEntry, drop bool) (Change, error) {
	if p.store == nil {
		return ch, ErrNoListsStore
	}
	ch.Where = InStore
	var err error
	if drop {
		err = p.store.DeleteKeyListEntry(ch.List, ch.Fingerprint)
	} else {
		err = p.store.PutKeyListEntry(e)
	}
	if err != nil {
		return ch, err
	}
	p.readOverrides()
	p.log.Info("key list changed in the store", "list", ch.List, "key", ch.Fingerprint)
	p.changed(ch.List)
	return ch, nil
}

func listMissing(list string) error {
	return words.Refuse(ErrNoList, words.M("access.list.no_list", words.Text("List", list)))
}

// lineKey is the fingerprint of the key on an authorized_keys line ("" for
// a comment, a blank line or a line that holds no key).
func lineKey(line []byte) string {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] == '#' {
		return ""
	}
	pk, _, _, _, err := gossh.ParseAuthorizedKey(line)
	if err != nil {
		return ""
	}
	return gossh.FingerprintSHA256(pk)
}

// rewriteKeyFile replaces the file at path (through symlinks) by edit of
// its lines: a temporary file beside it with the same mode, synced, then
// renamed over it, so a reader sees the old file or the new one, whole. A
// file or directory the server may not write is errUnwritable.
func rewriteKeyFile(path string, edit func(lines [][]byte) [][]byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(real)
	if err != nil {
		return err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return err
	}
	if len(old) > maxKeyFile {
		return fmt.Errorf("%s is longer than %d bytes: edit it by hand", real, maxKeyFile)
	}
	lines := bytes.Split(bytes.TrimRight(old, "\n"), []byte("\n"))
	if len(old) == 0 {
		lines = nil
	}
	lines = edit(lines)
	out := append(bytes.Join(lines, []byte("\n")), '\n')
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".*")
	if err != nil {
		return unwritable(err)
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return unwritable(err)
	}
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), real); err != nil {
		return unwritable(err)
	}
	done = true
	if d, err := os.Open(filepath.Dir(real)); err == nil {
		_ = d.Sync() // the rename itself lasting: best effort, the file is whole either way
		d.Close()
	}
	return nil
}

// unwritable marks the errors of a read-only file system or directory.
func unwritable(err error) error {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EPERM) {
		return fmt.Errorf("%w: %w", errUnwritable, err)
	}
	return err
}

// ListFile is the path of list's file, and whether the server has one.
func (p *Policy) ListFile(list string) (string, bool) {
	f, err := p.file(list)
	if err != nil || f == nil {
		return "", false
	}
	return f.Path(), true
}

// StoreEntry is the store's change to list about a key, if there is one.
func (p *Policy) StoreEntry(list, fp string) (persistence.KeyListEntry, bool) {
	return p.over.entry(list, fp)
}

// StoreEntries are the store's changes to list, by fingerprint.
func (p *Policy) StoreEntries(list string) []persistence.KeyListEntry { return p.over.list(list) }
