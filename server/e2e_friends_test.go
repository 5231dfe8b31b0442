package server

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// TestFriendsOverSSH plays issue 39's story on one node, over real SSH:
// anna and bob meet at a table and become friends (I, f; bob answers the
// notice with A); bob's friends page follows anna from table to lobby to
// table within 2 s; anna invites bob from her waiting room and he accepts
// with one key from his own table's screen; her blocking him ends the
// friendship and hides where she is.
func TestFriendsOverSSH(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	annaKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)

	anna := sshtest.Dial(t, addr, sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithPTY(80, 24))
	anna.ExpectScreen(t, `anna`, 5*time.Second)
	anna.Type("n")
	anna.ExpectScreen(t, `New table`, 5*time.Second)
	anna.Type("\r")
	first := anna.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+first))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)
	anna.ExpectScreen(t, `bob\s+● here`, 5*time.Second)

	// anna asks bob from the players at the table; bob answers the notice.
	anna.Type("I")
	anna.ExpectScreen(t, `Players at table `+first+`[\s\S]*▸ bob`, 5*time.Second)
	anna.Type("f")
	anna.ExpectScreen(t, `Friend request sent to bob`, 5*time.Second)
	bob.ExpectScreen(t, `anna asks to be your friend · A: accept`, 5*time.Second)
	bob.Type("A")
	bob.ExpectScreen(t, `Accepted: you are friends now`, 5*time.Second)
	anna.Type("\x1b")
	anna.ExpectScreen(t, `Table `+first, 5*time.Second)

	// bob, in the lobby, sees where anna is, and follows her.
	bob.Type("L")
	bob.ExpectScreen(t, `Tables`, 5*time.Second)
	bob.Type("F")
	bob.ExpectScreen(t, `Friends[\s\S]*anna\s+at table `+first+` \(The Grizzled, waiting for players\)`, 5*time.Second)
	anna.Type("L")
	anna.ExpectScreen(t, `Tables`, 5*time.Second)
	bob.ExpectScreen(t, `anna\s+in the lobby`, 2*time.Second)
	anna.Type("n")
	anna.ExpectScreen(t, `New table`, 5*time.Second)
	anna.Type("\r")
	second := anna.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	bob.ExpectScreen(t, `anna\s+at table `+second+` \(The Grizzled, waiting for players\)`, 2*time.Second)

	// bob sits at a table of his own; anna invites him to hers from her
	// waiting room, and one key takes him there.
	bob.Type("\x1b")
	bob.ExpectScreen(t, `Tables`, 5*time.Second)
	bob.Type("n")
	bob.ExpectScreen(t, `New table`, 5*time.Second)
	bob.Type("\r")
	own := bob.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	anna.Type("F")
	anna.ExpectScreen(t, `▸ bob\s+at table `+own, 5*time.Second)
	anna.Type("i")
	anna.ExpectScreen(t, `Invitation sent: bob sees it on their screen`, 5*time.Second)
	bob.ExpectScreen(t, `anna invites you to table `+second+` \(The Grizzled\) · A: join`, 5*time.Second)
	bob.Type("A")
	bob.ExpectScreen(t, `Table `+second+`[\s\S]*bob \(you\)`, 5*time.Second)
	anna.ExpectScreen(t, `▸ bob\s+at table `+second, 5*time.Second)

	// anna blocks bob: no longer friends, and he no longer sees her.
	anna.Type("\x1b")
	anna.ExpectScreen(t, `Table `+second, 5*time.Second)
	anna.Type("I")
	anna.ExpectScreen(t, `Players at table `+second+`[\s\S]*▸ bob`, 5*time.Second)
	anna.Type("b")
	anna.ExpectScreen(t, `bob\s+blocked`, 5*time.Second)
	bob.Type("F")
	bob.ExpectScreen(t, `No friends yet`, 5*time.Second)
	if strings.Contains(bob.Screen(), "anna") {
		t.Fatalf("bob still sees anna on his friends page:\n%s", bob.Screen())
	}
	for _, key := range []string{sshtest.Fingerprint(annaKey), sshtest.Fingerprint(bobKey)} {
		p, err := srv.store.Player(key)
		if err != nil || len(p.Friends) != 0 || len(p.Asked) != 0 || len(p.Askers) != 0 {
			t.Fatalf("after the block, a profile keeps friends or requests: %+v, %v", p.Relations, err)
		}
	}
}
