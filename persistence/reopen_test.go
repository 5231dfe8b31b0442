package persistence_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

// openAt opens (or creates) a bbolt store at path; the test closes it.
func openAt(t *testing.T, path string) *persistence.Bolt {
	t.Helper()
	s, err := persistence.Open(path, persistence.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	s := openAt(t, path)
	storetest.Fill(t, s)
	before := storetest.Read(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path)
	after := storetest.Read(t, s)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("reopen changed data:\nbefore %+v\nafter  %+v", before, after)
	}
	after.Check(t, s)
}

func TestBackupOpensWithSameData(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, filepath.Join(dir, "live.db"))
	storetest.Fill(t, s)
	want := storetest.Read(t, s)

	var buf bytes.Buffer
	n, err := s.Backup(&buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("Backup = %d, %v (buffer %d bytes)", n, err, buf.Len())
	}
	streamed := filepath.Join(dir, "streamed.db")
	if err := os.WriteFile(streamed, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	copyPath := filepath.Join(t.TempDir(), "backup.db") // never beside the live file: that is the data directory
	if err := os.WriteFile(copyPath, []byte("an older backup"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.BackupFile(copyPath); err != nil { // replaces the old one
		t.Fatal(err)
	}
	fi, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v; want 0600", fi.Mode().Perm())
	}
	if err := s.BackupFile(s.Path()); err == nil {
		t.Fatal("BackupFile over the live database succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory after backups: %v; want live and streamed only", entries)
	}
	if entries, _ := os.ReadDir(filepath.Dir(copyPath)); len(entries) != 1 {
		t.Errorf("backup's directory after the backup: %v; want the backup only", entries)
	}

	// Both copies open (while the live store stays open) with the same data.
	for _, p := range []string{streamed, copyPath} {
		b := openAt(t, p)
		if got := storetest.Read(t, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s differs:\n got %+v\nwant %+v", filepath.Base(p), got, want)
		}
		if err := b.Check(); err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
	}
}

// stallingWriter takes its first write, says so, and then blocks every
// write until released: a backup reader that stopped reading.
type stallingWriter struct {
	once    sync.Once
	wrote   chan struct{}
	release chan struct{}
}

func (w *stallingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.wrote) })
	<-w.release
	return len(p), nil
}

// Issue 36 item 6: a backup reader that stopped reading froze every write
// once the database had to grow (a new table waited 10.9 s, until the
// reader let go). The spooled backup holds nothing while its reader is
// slow.
func TestAStalledBackupReaderHoldsNoWrite(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, filepath.Join(dir, "live.db"))
	storetest.Fill(t, s)
	reader := &stallingWriter{wrote: make(chan struct{}), release: make(chan struct{})}
	backedUp := make(chan error, 1)
	go func() {
		_, err := s.SpooledBackup(reader)
		backedUp <- err
	}()
	released := false
	release := func() {
		if !released {
			released = true
			close(reader.release)
		}
	}
	t.Cleanup(release)
	select {
	case <-reader.wrote:
	case err := <-backedUp:
		t.Fatalf("the backup ended before its reader stalled: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the backup wrote nothing")
	}
	// 64 MiB of reviews: the file must grow (and bbolt remap) several times.
	big := bytes.Repeat([]byte("x"), 8<<20)
	wrote := make(chan error, 1)
	go func() {
		for i := range 8 {
			if err := s.PutBlob(fmt.Sprint("blob", i), big); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("writes wait for a stalled backup reader")
	}
	release()
	if err := <-backedUp; err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".backup-spool-*")); len(left) > 0 {
		t.Errorf("the spool is left behind: %v", left)
	}
}

// Issue 36 item 5: the server did not notice its database file replaced
// under it (it kept writing to the old inode, lost at the next start).
func TestFileReplacedIsNoticed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	s := openAt(t, path)
	if err := s.FileReplaced(); err != nil {
		t.Fatalf("a file in place: %v", err)
	}
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other, []byte("a backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	err := s.FileReplaced()
	if !errors.Is(err, persistence.ErrFileReplaced) || !strings.Contains(err.Error(), "/proc/") {
		t.Fatalf("a file renamed over it: %v; want ErrFileReplaced saying how to keep the open file", err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := s.FileReplaced(); !errors.Is(err, persistence.ErrFileReplaced) {
		t.Fatalf("the file removed: %v", err)
	}
}
