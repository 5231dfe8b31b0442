package server

import (
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// Issue 36 item 6: the admin socket's backup stream had no write
// deadline, so a reader that stopped reading held its goroutine (and,
// before the spool, the store) for good.
func TestABackupReaderThatStopsIsGivenUp(t *testing.T) {
	server, client := net.Pipe() // no buffer: a write waits for a read
	defer client.Close()
	defer server.Close()
	w := stallLimit{server, 50 * time.Millisecond}
	done := make(chan error, 1)
	go func() {
		_, err := w.Write([]byte("backup bytes"))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("a write nobody reads ended with %v, want the deadline", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a write nobody reads still waits")
	}
	go func() { _, _ = client.Read(make([]byte, 64)) }()
	if _, err := w.Write([]byte("more")); err != nil {
		t.Errorf("a write that is read failed: %v", err)
	}
}

// Issue 36 item 5: the server did not notice its database file replaced
// under it. It says so as an error and /readyz fails.
func TestAReplacedDatabaseFileIsSaidLoudly(t *testing.T) {
	t.Parallel()
	var logs safeBuffer
	dir := t.TempDir()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if srv.checkFile(true) || srv.Ready() != nil {
		t.Fatalf("a file in place: said something, or not ready (%v)", srv.Ready())
	}
	other := filepath.Join(dir, "copy.db")
	if err := os.WriteFile(other, []byte("a backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, filepath.Join(dir, "bivouac.db")); err != nil {
		t.Fatal(err)
	}
	if !srv.checkFile(true) {
		t.Error("the replaced file was not said")
	}
	if err := srv.Ready(); !errors.Is(err, persistence.ErrFileReplaced) {
		t.Errorf("ready: %v, want ErrFileReplaced", err)
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "REPLACED") {
		t.Errorf("not said loudly:\n%s", logs.String())
	}
}

// A backup is never written beside these: they are what make a data
// directory.
func TestDataDirMarksAreTheDataDirsFiles(t *testing.T) {
	if !slices.Equal(persistence.DataDirMarks, []string{hostkeys.FileName, AdminSocket}) {
		t.Errorf("persistence.DataDirMarks %v; the data directory holds %s and %s",
			persistence.DataDirMarks, hostkeys.FileName, AdminSocket)
	}
}
