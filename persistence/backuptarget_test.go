package persistence_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

// fileState is what a refused target must still be after the refusal.
type fileState struct {
	mode    fs.FileMode
	content string // a regular file's bytes, a directory's names, a link's target
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	st := fileState{mode: fi.Mode()}
	switch {
	case fi.Mode().IsRegular():
		b, _ := os.ReadFile(path)
		st.content = string(b)
	case fi.IsDir():
		entries, _ := os.ReadDir(path)
		for _, e := range entries {
			st.content += e.Name() + "\n"
		}
	case fi.Mode()&fs.ModeSymlink != 0:
		st.content, _ = os.Readlink(path)
	}
	return st
}

// refusedTargets makes, around a data directory holding live, every target
// a backup must refuse (issue 28 item 1), each named by why.
func refusedTargets(t *testing.T, dataDir, live string) map[string]string {
	t.Helper()
	out := t.TempDir()
	mk := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	key := filepath.Join(dataDir, "ssh_host_ed25519_key")
	mk(os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600))
	fifo := filepath.Join(out, "pipe")
	mk(syscall.Mkfifo(fifo, 0o600))
	dir := filepath.Join(out, "dir")
	mk(os.Mkdir(dir, 0o700))
	mk(os.WriteFile(filepath.Join(dir, "inside"), []byte("x"), 0o600))
	link := filepath.Join(out, "link.db")
	mk(os.Symlink(live, link))
	fifoLink := filepath.Join(out, "pipe-link")
	mk(os.Symlink(fifo, fifoLink))
	hard := filepath.Join(out, "hard.db")
	mk(os.Link(live, hard))
	dataLink := filepath.Join(out, "data-link")
	mk(os.Symlink(dataDir, dataLink))
	// Issue 36 item 5: bivouac backup --data OTHER PATH replaced another
	// running server's live database.
	otherLive := filepath.Join(t.TempDir(), "elsewhere.db")
	openAt(t, otherLive)
	otherKeyDir, otherSockDir := t.TempDir(), t.TempDir()
	mk(os.WriteFile(filepath.Join(otherKeyDir, "ssh_host_ed25519_key"), []byte("key"), 0o600))
	mk(os.WriteFile(filepath.Join(otherSockDir, "admin.sock"), nil, 0o600))
	return map[string]string{
		"another server's live database":    otherLive,
		"beside another server's host key":  filepath.Join(otherKeyDir, "bivouac.db"),
		"beside another server's socket":    filepath.Join(otherSockDir, "backup.db"),
		"the live database":                 live,
		"the live database through ..":      dataDir + "/../" + filepath.Base(dataDir) + "/" + filepath.Base(live),
		"the live database through a link":  link,
		"a hard link to the live database":  hard,
		"the host key":                      key,
		"a new file in the data directory":  filepath.Join(dataDir, "new.db"),
		"a data directory file via a link":  filepath.Join(dataLink, "other.db"),
		"the data directory itself":         dataDir,
		"a FIFO":                            fifo,
		"a symlink to a FIFO":               fifoLink,
		"a directory":                       dir,
		"a symlink to nothing":              filepath.Join(out, "dangling"),
		"a file in a directory that is not": filepath.Join(out, "missing", "b.db"),
	}
}

// BackupFile refuses every target in the data directory, the live
// database under any name and every existing non-regular file, and leaves
// each untouched.
func TestBackupFileRefusesDangerousTargets(t *testing.T) {
	dataDir := t.TempDir()
	live := filepath.Join(dataDir, "bivouac.db")
	s := openAt(t, live)
	storetest.Fill(t, s)
	want := storetest.Read(t, s)
	targets := refusedTargets(t, dataDir, live)
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone"), targets["a symlink to nothing"]); err != nil {
		t.Fatal(err)
	}
	for why, target := range targets {
		var before fileState
		if _, err := os.Lstat(target); err == nil {
			before = stateOf(t, target)
		}
		err := s.BackupFile(target)
		if !errors.Is(err, persistence.ErrRefusedTarget) {
			t.Errorf("%s (%s): %v; want a refusal", why, target, err)
			continue
		}
		if said := i18n.For(i18n.English).ErrorDetail(err); !strings.Contains(said, target) || !strings.Contains(said, "nothing was written") {
			t.Errorf("%s: the refusal %q does not say what and that nothing was written", why, err)
		}
		if before.mode != 0 {
			if after := stateOf(t, target); after != before {
				t.Errorf("%s: changed from %+v to %+v", why, before, after)
			}
		} else if _, err := os.Lstat(target); err == nil {
			t.Errorf("%s: created", why)
		}
	}
	if entries, _ := os.ReadDir(dataDir); len(entries) != 2 {
		t.Errorf("data directory after the refusals: %v; want the database and the key", entries)
	}
	if got := storetest.Read(t, s); !reflect.DeepEqual(got, want) {
		t.Fatal("the live database changed")
	}
	good := filepath.Join(t.TempDir(), "backup.db")
	if err := s.BackupFile(good); err != nil {
		t.Fatal(err)
	}
	if got := storetest.Read(t, openAt(t, good)); !reflect.DeepEqual(got, want) {
		t.Fatal("the good backup differs")
	}
}

// A device node is refused before anything is written (checked without
// BackupFile: as root a broken check would replace /dev/null).
func TestBackupTargetRefusesADevice(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	_, err := persistence.CheckBackupTarget("/dev/null", t.TempDir(), "")
	if !errors.Is(err, persistence.ErrRefusedTarget) || !strings.Contains(err.Error(), "device") {
		t.Fatalf("CheckBackupTarget(/dev/null) = %v; want a refused device", err)
	}
}

// A backup through a symlink to a regular file replaces the file it names
// and keeps the link.
func TestBackupThroughALinkReplacesItsFile(t *testing.T) {
	s := openAt(t, filepath.Join(t.TempDir(), "bivouac.db"))
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	if err := os.WriteFile(old, []byte("an older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.db")
	if err := os.Symlink("old.db", link); err != nil {
		t.Fatal(err)
	}
	if err := s.BackupFile(link); err != nil {
		t.Fatal(err)
	}
	if to, err := os.Readlink(link); err != nil || to != "old.db" {
		t.Fatalf("the link now %q, %v", to, err)
	}
	openAt(t, old)
}
