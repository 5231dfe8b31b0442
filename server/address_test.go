package server

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
)

// A keyed player's "address f" in plain mode is kept in the profile: after
// a restart their next session starts addressed so (the profile command
// says it from the session's own player).
func TestAddressIsKeptAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	srv, addr := startServer(t, dir)
	key := sshtest.NewKey(t)
	ann := dialPlain(t, addr, "ann", sshtest.WithKey(key))
	if got := strings.Join(ann.do("address x"), "\n"); !strings.Contains(got, "How the game addresses you: not chosen") {
		t.Fatalf("address with no choice:\n%s", got)
	}
	if got := strings.Join(ann.do("address f"), "\n"); !strings.Contains(got, "Saved. How the game addresses you: feminine.") {
		t.Fatalf("address f:\n%s", got)
	}
	ann.c.Close()
	srv.Close()

	_, addr = startServer(t, dir)
	ann = dialPlain(t, addr, "ann", sshtest.WithKey(key))
	if got := strings.Join(ann.do("profile"), "\n"); !strings.Contains(got, "How the game addresses you: feminine.") {
		t.Fatalf("profile after a restart:\n%s", got)
	}
}

// SetGender gives a key with no profile yet one, under its name.
func TestSetGenderMakesAProfile(t *testing.T) {
	srv, _ := startServer(t, t.TempDir())
	if err := srv.records.SetGender(table.Player{ID: "SHA256:ola", Name: "ola"}, game.Masculine); err != nil {
		t.Fatal(err)
	}
	p, err := srv.records.Profile("SHA256:ola")
	if err != nil || p.Gender != game.Masculine || p.Name != "ola" {
		t.Fatalf("profile %+v, %v; want ola, masculine", p, err)
	}
}
