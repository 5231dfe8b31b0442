package server

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// A data directory others can read is pointed out at start, with the fix
// (issue 12 item 9).
func TestOpenDataDirIsWarnedAbout(t *testing.T) {
	t.Parallel()
	for _, mode := range []os.FileMode{0o755, 0o700} {
		dir := filepath.Join(t.TempDir(), "data")
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
		var logs sshtest.Buffer
		srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir, Log: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		srv.Close()
		warned := strings.Contains(logs.String(), "chmod 700 "+dir)
		if warned != (mode == 0o755) {
			t.Errorf("mode %04o: warned %v:\n%s", mode, warned, logs.String())
		}
	}
}
