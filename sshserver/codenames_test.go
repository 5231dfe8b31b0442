package sshserver

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

func TestLooksLikeGuestCode(t *testing.T) {
	code := FormatGuestCode(NewGuestCode()) // g-xxxx-xxxx-xxxx
	bare := strings.TrimPrefix(code, "g-")
	for _, s := range []string{code, strings.ToUpper(code), "g_" + bare, "G." + bare, "g " + bare,
		"g-vyv7-f8va-cax0", "g_vyv7_f8va_cax0", "g-vyv7f8vacax0", "vyv7-f8va-cax0", "VYV7_F8VA_CAX0",
		"vyv7f8vacax0", "vyv7.f8va.cax", "g-vyv7-f8va", "gvyv7f8vacax0", "g-abcdefghjkmn"} {
		if !LooksLikeGuestCode(s) {
			t.Errorf("%q does not look like a code", s)
		}
	}
	for _, s := range []string{"", "kate22", "alice", "john_smith_1985", "JASPER", "player", "g-kate",
		"guest-7kqm", "invite-k7qx2m", "invite-K7QX2MPA", "marie-claire", "anna2024", "x-7kqm", "ab12"} {
		if LooksLikeGuestCode(s) {
			t.Errorf("%q looks like a code", s)
		}
	}
}

// A mistyped reclaim code was shown to everyone as the guest's name
// (issue 28 item 5): such a name is a failed reclaim for a guest, and no
// name at all for a key holder; the log never shows it.
func TestCodeShapedUserNamesAreNeverNames(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1e9, 0)
	srv := startTuned(t, Config{AllowGuests: true}, func(s *Server) {
		s.guesses = NewGuesses(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	})
	// Keyless: a failed reclaim, counted as a wrong guess.
	for _, name := range []string{"g-vyv7-f8va-cax0", "vyv7f8vacax0"} {
		if c, err := sshtest.DialE(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser(name)); err == nil {
			c.Close()
			t.Fatalf("a keyless login as %q got in", name)
		}
		if w := srv.Guesses().Wait("127.0.0.1"); w != GuessBase {
			t.Errorf("after %q the address waits %v, want %v: not counted as a wrong guess", name, w, GuessBase)
		}
		mu.Lock()
		now = now.Add(2 * GuessForget) // the next name starts afresh
		mu.Unlock()
	}
	// With a key: in, under no name from the user name.
	for _, name := range []string{"g-vyv7-f8va-cax0", "g_vyv7f8vacax0", "VYV7-F8VA-CAX0", "vyv7f8vacax0"} {
		c := sshtest.Dial(t, srv.addr, sshtest.WithUser(name))
		c.ExpectScreen(t, `who SHA256\S+\nguest=false code="" user=""`, wait)
		c.Close()
	}
	inv := sshtest.Dial(t, srv.addr, sshtest.WithUser("invite-K7QX2MPA"))
	inv.ExpectScreen(t, `user=""`, wait)
	logs := strings.ToLower(srv.logs.String())
	for _, secret := range []string{"vyv7", "f8va", "cax0", "k7qx2mpa"} {
		if strings.Contains(logs, secret) {
			t.Errorf("%q is in the log:\n%s", secret, logs)
		}
	}
	if !strings.Contains(logs, "(invite)") || !strings.Contains(logs, "(guest code)") {
		t.Errorf("the log does not say what was hidden:\n%s", logs)
	}
}

// Issue 36 item 2: with a valid code, near-misses around it became
// display names and reached the log. Any user name holding the code's 12
// characters, whatever surrounds them, is no name and is not logged; a
// keyless login under one is a failed reclaim.
func TestNamesHoldingACodeAreNeverNames(t *testing.T) {
	srv := start(t, Config{AllowGuests: true})
	g := sshtest.Dial(t, srv.addr, sshtest.AsGuest())
	code := strings.ToLower(g.ExpectScreen(t, `code="(\w+)"`, wait)[1])
	dashed := strings.TrimPrefix(FormatGuestCode(code), "g-") // xxxx-xxxx-xxxx
	names := []string{"gg-" + dashed, "xg-" + dashed, "g=" + dashed, "g:" + dashed, "g/" + dashed,
		"g~" + dashed, "g+" + dashed, "g—" + dashed, "g-" + dashed + "@localhost", "g-" + dashed + ",",
		"(g-" + dashed, "g-" + dashed + "!", "user g-" + dashed, "code:g-" + dashed,
		"x" + code + "y", "Anna" + strings.ToUpper(code), "a.b." + dashed + ".c"}
	for _, name := range names {
		c := sshtest.Dial(t, srv.addr, sshtest.WithUser(name))
		c.ExpectScreen(t, `who SHA256\S+\nguest=false code="" user=""`, wait)
		c.Close()
	}
	srv.guesses = NewGuesses(nil)
	if c, err := sshtest.DialE(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser("xx"+code)); err == nil {
		c.Close()
		t.Error("a keyless login holding a known code got in as a new guest")
	}
	logs := strings.ToLower(srv.logs.String())
	for _, part := range []string{code[:4], code[4:8], code[8:]} {
		if strings.Contains(logs, part) {
			t.Errorf("part %q of the code is in the log", part)
		}
	}
	for _, s := range []string{"Kathryn Smyth77", "Meg Richardson 1985", "gg", "xg-kate", "Greg Smith-Jones"} {
		if LooksLikeGuestCode(s) || srv.HoldsCode(s) {
			t.Errorf("ordinary name %q taken for a code", s)
		}
	}
}
