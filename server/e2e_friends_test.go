package server

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/friends"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// TestFriendsOverSSH plays issue 39's story on one node, over real SSH:
// anna and bob meet at a table and become friends (I, f; bob answers the
// notice with A); bob's friends page follows anna from table to lobby to
// table within 2 s; anna invites bob from her waiting room and he accepts
// with one key from his own table's screen; carol, asking to play now,
// sits at anna's table; her blocking him ends the friendship and hides
// where she is.
func TestFriendsOverSSH(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	friendsStory(t, [3]string{addr, addr, addr}, srv.store)
}

// TestFriendsAcrossTheClusterOverSSH is the same story with anna, bob and
// carol each on a node of their own of a three-node cluster: requests,
// invitations and presence cross nodes on the players' subjects, a
// friend's move within 2 s.
func TestFriendsAcrossTheClusterOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster")
	}
	t.Parallel()
	c := startTestCluster(t, 3)
	friendsStory(t, [3]string{c.nodes[0].addr, c.nodes[1].addr, c.nodes[2].addr}, c.nodes[0].srv.store)
}

// friendsStory is the story with anna, bob and carol on the servers at
// addrs; store is where their profiles are kept.
func friendsStory(t *testing.T, addrs [3]string, store persistence.Store) {
	annaKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)

	anna := sshtest.Dial(t, addrs[0], sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithPTY(80, 24))
	anna.ExpectScreen(t, `anna`, 5*time.Second)
	anna.Type("n")
	anna.ExpectScreen(t, `New table`, 5*time.Second)
	anna.Type("\r")
	first := anna.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	bob := sshtest.Dial(t, addrs[1], sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+first))
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
	moved := time.Now()
	bob.ExpectScreen(t, `anna\s+in the lobby`, 2*time.Second)
	t.Logf("bob saw anna leave her table %v after her key", time.Since(moved).Round(time.Millisecond))
	anna.ExpectScreen(t, `Tables`, 5*time.Second)
	anna.Type("n")
	anna.ExpectScreen(t, `New table`, 5*time.Second)
	anna.Type("\r")
	moved = time.Now()
	second := anna.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	bob.ExpectScreen(t, `anna\s+at table `+second+` \(The Grizzled, waiting for players\)`, 2*time.Second)
	t.Logf("bob saw anna sit down %v after her key", time.Since(moved).Round(time.Millisecond))

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

	// carol asks to play now: she sits at anna's table, the public one
	// nearest to starting, and not at bob's, where he alone is seated.
	carol := sshtest.Dial(t, addrs[2], sshtest.WithUser("carol"), sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithPTY(80, 24),
		sshtest.WithCommand("play grizzled"))
	carol.ExpectScreen(t, `Table `+second+`[\s\S]*carol \(you\)`, 5*time.Second)

	// The game starts: bob, at the table, sees how far it is.
	anna.Type("\x1b")
	anna.ExpectScreen(t, `Table `+second, 5*time.Second)
	anna.Type("s")
	anna.ExpectScreen(t, `Mission 1`, 5*time.Second)
	bob.ExpectScreen(t, `Mission 1`, 5*time.Second)
	bob.Type("F")
	bob.ExpectScreen(t, `anna\s+at table `+second+` \(The Grizzled, mission 1\)`, 2*time.Second)
	bob.Type("\x1b")
	bob.ExpectScreen(t, `Mission 1`, 5*time.Second)

	// anna blocks bob: no longer friends, and he no longer sees her.
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
		p, err := store.Player(key)
		if err != nil || len(p.Friends) != 0 || len(p.Asked) != 0 || len(p.Askers) != 0 {
			t.Fatalf("after the block, a profile keeps friends or requests: %+v, %v", p.Relations, err)
		}
	}
}

// TestADeadNodesFriendsGoOfflineOverSSH: bob, on node 1, sees his friend
// anna, on node 3, in the lobby; node 3 dies (kill -9: its NATS gone, nothing
// said), and bob's friends page shows her "last seen today" within
// presence.NodeLapse and a beat, with nothing typed.
func TestADeadNodesFriendsGoOfflineOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster")
	}
	t.Parallel()
	c := startTestCluster(t, 3)
	annaKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	a := friends.Person{ID: sshtest.Fingerprint(annaKey), Name: "anna"}
	b := friends.Person{ID: sshtest.Fingerprint(bobKey), Name: "bob"}
	for _, p := range []friends.Person{a, b} { // keys that played before
		if _, err := c.nodes[0].srv.store.Seen(p.ID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	anna := sshtest.Dial(t, c.nodes[2].addr, sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithPTY(80, 24))
	anna.ExpectScreen(t, `Tables`, 5*time.Second)
	bob := sshtest.Dial(t, c.nodes[0].addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24))
	bob.ExpectScreen(t, `Tables`, 5*time.Second)
	svc := c.nodes[0].srv.friends
	if _, err := svc.Ask(a, b); err != nil {
		t.Fatal(err)
	}
	if err := svc.Accept(b, a); err != nil {
		t.Fatal(err)
	}
	bob.Type("F")
	bob.ExpectScreen(t, `anna\s+in the lobby`, 5*time.Second)
	clocktest.CheckFor(t, 5*time.Second, 20*time.Millisecond, func() error {
		if !c.nodes[0].srv.presence.Hears("n3") {
			return errors.New("node 1 has not heard node 3's beat")
		}
		return nil
	})
	c.kill(2)
	killed := time.Now()
	bob.ExpectScreen(t, `anna\s+last seen today`, presence.NodeLapse+presence.BeatEvery+2*time.Second)
	t.Logf("bob saw anna last seen today %v after her node died (bound: %v and a beat)", time.Since(killed).Round(time.Millisecond), presence.NodeLapse)
}

// TestFriendByNameOverSSH: anna, in plain mode at her table, types
// "friend bob" for bob sitting there; bob answers from a script with
// `ssh host friend anna` (she asks him: that accepts); `ssh host friends`
// lists her; anna's "unfriend bob" ends it. A name nobody answers to is
// said so.
func TestFriendByNameOverSSH(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	annaKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	for _, p := range []friends.Person{{ID: sshtest.Fingerprint(annaKey), Name: "anna"}, {ID: sshtest.Fingerprint(bobKey), Name: "bob"}} {
		if _, err := srv.store.Seen(p.ID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	anna := sshtest.Dial(t, addr, sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("plain"))
	anna.Expect(t, `> `, 5*time.Second)
	anna.Type("new grizzled 2 0\r")
	code := anna.Expect(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)
	anna.Type("friend nobody-here\r")
	anna.Expect(t, `Nobody called nobody-here is at your table`, 5*time.Second)
	anna.Type("friend BOB\r")
	anna.Expect(t, `Friend request sent to bob`, 5*time.Second)

	run := func(cmd string, want string) {
		t.Helper()
		c := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithoutPTY(), sshtest.WithCommand(cmd))
		c.Expect(t, want, 5*time.Second)
	}
	run("friend anna", `Accepted: you are friends now|You and anna are friends now`)
	run("friends", `anna\s+at table `+code)
	anna.Type("unfriend bob\r")
	anna.Expect(t, `You and bob are no longer friends`, 5*time.Second)
	run("friends", `No friends yet`)
}

// TestAFriendWhoLeftBeforeReadsTheDay: bob was on and left before anna
// logged in, carol three days before: presence never saw them go, and
// `ssh host friends` reads the day from their profiles (stamped when a
// session ends): "last seen today", "last seen 2026-11-26", not
// "offline".
func TestAFriendWhoLeftBeforeReadsTheDay(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	annaKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	a := friends.Person{ID: sshtest.Fingerprint(annaKey), Name: "anna"}
	b := friends.Person{ID: sshtest.Fingerprint(bobKey), Name: "bob"}
	c := friends.Person{ID: "SHA256:carol", Name: "carol"}
	for _, p := range []friends.Person{a, b, c} {
		if _, err := srv.store.Seen(p.ID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	svc := srv.friends
	for _, f := range []friends.Person{b, c} {
		if _, err := svc.Ask(a, f); err != nil {
			t.Fatal(err)
		}
		if err := svc.Accept(f, a); err != nil {
			t.Fatal(err)
		}
	}
	away := time.Now().AddDate(0, 0, -3)
	if _, err := srv.store.UpdatePlayer(c.ID, func(p *persistence.Profile) error { p.LastSeen = away; return nil }); err != nil {
		t.Fatal(err)
	}
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24))
	bob.ExpectScreen(t, `Tables`, 5*time.Second)
	in, err := srv.store.Player(b.ID)
	if err != nil {
		t.Fatal(err)
	}
	bob.Close()
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if p, err := srv.store.Player(b.ID); err != nil || !p.LastSeen.After(in.LastSeen) {
			return errors.New("bob's session's end is not stamped in his profile")
		}
		return nil
	})
	anna := sshtest.Dial(t, addr, sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithoutPTY(), sshtest.WithCommand("friends"))
	anna.Expect(t, `bob\s+last seen today`, 5*time.Second)
	anna.Expect(t, `carol\s+last seen `+away.Format("2006-01-02"), 5*time.Second)
}
