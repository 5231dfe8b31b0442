package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// Desktop notifications over real SSH (issue 40, item 4): bob turns them
// on with `ssh host notify desktop 9`, logs in, and changes them to 777
// from another terminal (his session keeps a copy, told of the change);
// in the full-screen lobby, when a correspondence table comes to his
// move, his terminal gets the notice, the bell and one OSC 777 sequence
// with the notice's words. In plain mode none (plain mode writes no
// escape sequence).
func TestDesktopNotificationReachesTheTerminal(t *testing.T) {
	t.Parallel()
	srv, addr := startGameServerWith(t, "desktop notifications over SSH", func(c *Config) {
		c.tableClock = clocktest.NewFast(240)
	})
	annKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	if out, code := command(t, addr, bobKey, "bob", "notify desktop loud"); code != 1 || !strings.Contains(out, "notify desktop on (OSC 9), 777 (OSC 777) or off") {
		t.Errorf("notify desktop loud: exit %d, %q", code, out)
	}
	if out, code := command(t, addr, bobKey, "bob", "notify desktop on"); code != 0 || !strings.Contains(out, "Desktop notifications: on (OSC 9)") {
		t.Fatalf("notify desktop on: exit %d, %q", code, out)
	}
	ann, code := newCorrTable(t, addr, annKey)
	bob := dialPlain(t, addr, "bob", sshtest.WithKey(bobKey))
	bob.do("join " + code)
	bob.do("leave")
	bob.c.Close()

	term := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	term.Expect(t, code, 5*time.Second) // the lobby lists his table
	if out, code := command(t, addr, bobKey, "bob", "notify desktop 777"); code != 0 || !strings.Contains(out, "Desktop notifications: on (OSC 777)") {
		t.Fatalf("notify desktop 777: exit %d, %q", code, out)
	}
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 10*time.Second)
	untilWaitingOn(t, ann, srv, code, sshtest.Fingerprint(bobKey))
	want := []byte("\x1b]777;notify;Bivouac;Your move at " + code + ": The Grizzled")
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if !bytes.Contains(term.Transcript(), want) {
			return fmt.Errorf("no OSC 777 notification %q in bob's terminal", want)
		}
		return nil
	})
	tr := term.Transcript()
	i := bytes.Index(tr, want)
	end := bytes.IndexByte(tr[i:], '\a')
	if end < 0 {
		t.Fatalf("the OSC sequence is not ended by BEL: %q", tr[i:])
	}
	body := tr[i+len("\x1b]") : i+end]
	if bytes.ContainsFunc(body, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		t.Errorf("a control character inside the sequence: %q", body)
	}
	if n := bytes.Count(tr, []byte("\x1b]777;")); n != 1 {
		t.Errorf("%d OSC 777 sequences, want 1", n)
	}
	if bytes.Contains(tr, []byte("\x1b]9;")) {
		t.Errorf("an OSC 9 sequence too")
	}
	if i == 0 || tr[i-1] != '\a' {
		t.Errorf("no bell before the notification")
	}
	term.Close()

	// Plain mode says the line and rings, with no escape sequence, and
	// says why when the player turns them on there.
	bobPlain := dialPlain(t, addr, "bob", sshtest.WithKey(bobKey))
	said := strings.Join(bobPlain.do("notify desktop on"), "\n")
	if !strings.Contains(said, "Desktop notifications: on (OSC 9)") || !strings.Contains(said, "Plain mode sends no desktop notifications") {
		t.Errorf("plain notify desktop on: %q", said)
	}
	said = strings.Join(bobPlain.do("profile"), "\n")
	if !strings.Contains(said, "Desktop notifications: on (OSC 9)") || !strings.Contains(said, "Webhook: none") {
		t.Errorf("plain profile: %q", said)
	}
	noEscapes(t, bobPlain)
}
