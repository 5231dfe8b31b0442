package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bivouac/persistence"
	"bivouac/server"
	"bivouac/sshserver/sshtest"
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
