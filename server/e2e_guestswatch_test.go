package server

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// Issue 37 item 9: with --guests watch a guest comes in and watches a
// table, in their language, but takes no seat and opens no table; a
// player with a key sits as before.
func TestGuestsWatchButDoNotSit(t *testing.T) {
	t.Parallel()
	srv, addr := startServerWith(t, t.TempDir(), func(c *Config) { c.GuestsWatch = true })
	host := sshtest.Dial(t, addr, sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithUser("hana"), sshtest.WithPTY(80, 24))
	host.ExpectScreen(t, `Bivouac`, 5*time.Second)
	host.Type("n")
	host.ExpectScreen(t, `New table`, 5*time.Second)
	host.Type("\r")
	code := host.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	gus := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("gus"), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code))
	gus.ExpectScreen(t, `guests may only watch here: connect with an SSH key to play`, 5*time.Second)
	sum := srv.hub.Room(code).Summary()
	if len(sum.Players) != 1 {
		t.Errorf("the guest took a seat: %v", sum.Players)
	}

	ola := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("ola"), sshtest.WithPTY(80, 24), sshtest.WithEnv("LANG", "pl_PL.UTF-8"))
	ola.ExpectScreen(t, `Bivouac`, 5*time.Second)
	ola.Type("n") // refused at once, before the new table's form
	ola.ExpectScreen(t, `goście mogą tu tylko obserwować`, 5*time.Second)
	if strings.Contains(ola.Screen(), "Nowy stół") {
		t.Errorf("the guest got the new table's form:\n%s", ola.Screen())
	}
	if n := len(srv.hub.List()); n != 1 {
		t.Errorf("%d tables open, want the host's alone", n)
	}
}
