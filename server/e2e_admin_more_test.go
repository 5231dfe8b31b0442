package server

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"bivouac/sshserver/sshtest"
)

// A table an admin closed stays closed: after a restart on the same data
// it is not among the rooms, and the log still shows who closed it.
func TestAdminClosedTableDoesNotComeBackAfterARestart(t *testing.T) {
	dir := t.TempDir()
	adminKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, dir, adminsFile)
	bob := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	code := newTable(t, bob)
	other := sshtest.Dial(t, addr, sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithUser("carl"), sshtest.WithPTY(80, 24))
	kept := newTable(t, other) // a table nobody closed comes back: the restart itself is sound

	if out, status := admin(t, addr, adminKey, "close "+code); status != 0 {
		t.Fatalf("admin close: status %d:\n%s", status, out)
	}
	bob.ExpectScreen(t, `an admin closed it`, 5*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	srv, addr = startModerated(t, dir, adminsFile)
	if srv.hub.Room(code) != nil {
		t.Errorf("the closed table %s is back after a restart", code)
	}
	if srv.hub.Room(kept) == nil {
		t.Errorf("the table %s nobody closed did not come back", kept)
	}
	rooms := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	rooms.Wait(t, 5*time.Second)
	if strings.Contains(rooms.Text(), code) {
		t.Errorf("`rooms` lists the closed table %s after a restart:\n%s", code, rooms.Text())
	}
	out, _ := admin(t, addr, adminKey, "log")
	if !regexp.MustCompile(`ada: closed table ` + code).MatchString(out) {
		t.Errorf("admin log does not show the close after a restart:\n%s", out)
	}
}
