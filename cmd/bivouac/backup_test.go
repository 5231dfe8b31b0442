package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

func TestBackupOfARunningServerAndOfAStoppedOne(t *testing.T) {
	dir := t.TempDir()
	srv, err := server.New(server.Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	alice.ExpectScreen(t, `Bivouac`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("\r")
	code := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	check := func(path string) {
		t.Helper()
		st, err := persistence.Open(path, persistence.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := st.Room(code); err != nil {
			t.Fatalf("the backup lacks table %s: %v", code, err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Fatalf("backup mode %v", fi.Mode().Perm())
		}
	}
	var out strings.Builder
	hot := filepath.Join(t.TempDir(), "hot.db")
	if err := run(t.Context(), []string{"backup", "--data", dir, hot}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "running server") {
		t.Fatalf("output %q", out.String())
	}
	check(hot)

	srv.Close()
	cold := filepath.Join(t.TempDir(), "cold.db")
	if err := run(t.Context(), []string{"backup", "--data", dir, cold}, &out, &out); err != nil {
		t.Fatal(err)
	}
	check(cold)
}

// newTable has a fresh player open a table on addr and returns its code.
func newTable(t *testing.T, addr, user string) string {
	t.Helper()
	c := sshtest.Dial(t, addr, sshtest.WithUser(user))
	c.ExpectScreen(t, `Bivouac`, 5*time.Second)
	c.Type("n")
	c.ExpectScreen(t, `New table`, 5*time.Second)
	c.Type("\r")
	return c.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
}

// snapshot is what a refused target must still be afterwards: its mode and
// its bytes, names or link target.
func snapshot(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var body string
	switch {
	case fi.Mode().IsRegular():
		b, _ := os.ReadFile(path)
		body = string(b)
	case fi.IsDir():
		entries, _ := os.ReadDir(path)
		for _, e := range entries {
			body += e.Name() + "\n"
		}
	case fi.Mode()&os.ModeSymlink != 0:
		body, _ = os.Readlink(path)
	}
	return fi.Mode().String() + "\n" + body
}

// Issue 28 item 1: `bivouac backup` onto the live database (under any
// name), a file in the data directory or a file that is not a regular file
// is refused, with the server running and stopped, and touches nothing: the
// moves made after the attempt are still there after a restart.
func TestBackupRefusesTargetsThatWouldDestroySomething(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "bivouac.db")
	srv, err := server.New(server.Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	before := newTable(t, addr, "alice")

	out := t.TempDir()
	fifo := filepath.Join(out, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(out, "folder")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(out, "live-link.db")
	if err := os.Symlink(live, link); err != nil {
		t.Fatal(err)
	}
	targets := map[string]string{
		"the live database":                live,
		"the live database through ..":     dir + "/../" + filepath.Base(dir) + "/bivouac.db",
		"the live database through a link": link,
		"the host key":                     filepath.Join(dir, hostkeys.FileName),
		"a new file in the data dir":       filepath.Join(dir, "copy.db"),
		"a FIFO":                           fifo,
		"a directory":                      folder,
	}
	// The live database's bytes change as the server writes: its inode
	// must not (checked below), and a link to it must stay that link.
	refuseAll := func(when string) {
		t.Helper()
		for why, target := range targets {
			exists := true
			var was string
			if _, err := os.Lstat(target); err == nil {
				was = snapshot(t, target)
			} else {
				exists = false
			}
			var msg strings.Builder
			err := run(t.Context(), []string{"backup", "--data", dir, target}, &msg, &msg)
			if !errors.Is(err, persistence.ErrRefusedTarget) || !strings.Contains(en.ErrorDetail(err), "nothing was written") {
				t.Errorf("%s, %s: %v; want a refusal saying nothing was written", when, why, err)
				continue
			}
			if !exists {
				if _, err := os.Lstat(target); err == nil {
					t.Errorf("%s, %s: created", when, why)
				}
			} else if now := snapshot(t, target); now != was && target != live && !strings.Contains(why, "..") {
				t.Errorf("%s, %s: changed", when, why)
			}
		}
	}
	inode := func() uint64 {
		fi, err := os.Stat(live)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	liveInode := inode()
	refuseAll("server running")
	if inode() != liveInode {
		t.Fatal("the live database was replaced")
	}
	after := newTable(t, addr, "bob")
	srv.Close()
	refuseAll("server stopped")
	if inode() != liveInode {
		t.Fatal("the live database was replaced")
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 3 {
		t.Errorf("data directory after the refusals: %v", entries)
	}

	// Restart: everything played before and after the attempts is there.
	srv, err = server.New(server.Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	st, err := persistence.Open(live, persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, code := range []string{before, after} {
		if _, err := st.Room(code); err != nil {
			t.Errorf("table %s lost: %v", code, err)
		}
	}
}
