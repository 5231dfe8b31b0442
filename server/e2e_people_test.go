package server

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// TestIgnoreAndBlockOverSSH plays the story over real SSH: bob talks at
// alice's table; alice opens the players (I), ignores bob and blocks him.
// Bob's next line reaches his own screen but never alice's; at the next
// table alice hosts bob's join is refused with the neutral words, while
// carol sits. Her report of bob reaches the admins' queue with his lines.
// After a restart alice's lists are still hers.
func TestIgnoreAndBlockOverSSH(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv, addr := startServer(t, dir)
	aliceKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)

	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"), sshtest.WithKey(aliceKey), sshtest.WithPTY(80, 24))
	alice.ExpectScreen(t, `alice`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("\r")
	code := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)
	bob.Type("t")
	bob.Type("gold for sale\r")
	alice.ExpectScreen(t, `bob: gold for sale`, 5*time.Second)

	alice.Type("I")
	alice.ExpectScreen(t, `Players at table `+code+`[\s\S]*▸ bob`, 5*time.Second)
	alice.Type("i")
	alice.ExpectScreen(t, `Ignored: bob`, 5*time.Second)
	alice.Type("b")
	alice.ExpectScreen(t, `bob\s+ignored · blocked`, 5*time.Second)
	alice.Type("\x1b")
	alice.ExpectScreen(t, `bob\s+● here`, 5*time.Second)
	if strings.Contains(alice.Screen(), "gold for sale") {
		t.Fatalf("bob's line is still on alice's screen:\n%s", alice.Screen())
	}
	bob.Type("t")
	bob.Type("cheap gold\r")
	bob.ExpectScreen(t, `bob: cheap gold`, 5*time.Second)
	alice.Type("t")
	alice.Type("marker\r")
	alice.ExpectScreen(t, `alice: marker`, 5*time.Second)
	if tr := string(alice.Transcript()); strings.Contains(tr, "cheap gold") {
		t.Fatal("bob's line, said after alice ignored him, reached her terminal")
	}

	// A report from the table reaches the admins' queue with its evidence.
	alice.Type("I")
	alice.ExpectScreen(t, `Players at table`, 5*time.Second)
	alice.Type("r")
	alice.Type("sells gold\r")
	alice.ExpectScreen(t, `has reached the admins`, 5*time.Second)
	alice.Type("\x1b")
	alice.ExpectScreen(t, `Table talk`, 5*time.Second) // before the next key, or esc and it read as alt+key
	reps, err := srv.Moderation().Reports()
	if err != nil || len(reps) != 1 || reps[0].Subject != sshtest.Fingerprint(bobKey) || reps[0].Table != code ||
		reps[0].Reason != "sells gold" || !strings.Contains(strings.Join(reps[0].Evidence, "\n"), "bob: cheap gold") {
		t.Fatalf("the admins' queue: %+v, %v", reps, err)
	}

	// alice's next table: bob may not sit there; carol may.
	alice.Type("L")
	alice.ExpectScreen(t, `Tables`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("\r")
	second := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	if second == code {
		t.Fatal("alice is still at her first table")
	}
	again := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+second))
	again.ExpectScreen(t, `you cannot join this table`, 5*time.Second)
	carol := sshtest.Dial(t, addr, sshtest.WithUser("carol"), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+second))
	carol.ExpectScreen(t, `carol \(you\)`, 5*time.Second)
	srv.Close()

	_, addr = startServer(t, dir)
	plain := dialPlain(t, addr, "alice", sshtest.WithKey(aliceKey))
	if got := strings.Join(plain.do("ignored"), "\n"); !strings.Contains(got, "Ignored: bob.") {
		t.Fatalf("after a restart, alice's ignored list: %q", got)
	}
	if got := strings.Join(plain.do("blocked"), "\n"); !strings.Contains(got, "Blocked: bob.") {
		t.Fatalf("after a restart, alice's blocked list: %q", got)
	}
}
