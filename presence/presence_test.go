package presence

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/words"
)

// net is an in-memory cluster: each hub a node, Send delivering to the
// hubs where the addressee has a session (not the sender's), at once.
type net struct {
	hubs  []*Hub
	sent  int
	clock *fakeClock
}

// fakeClock is the hubs' clock in tests: it moves only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time       { return c.t }
func (c *fakeClock) pass(d time.Duration) { c.t = c.t.Add(d) }
func (c *fakeClock) key(s *Session)       { s.Key(c.t.UnixNano()) }

type nodeBus struct {
	n    *net
	self *Hub
}

func (b nodeBus) Send(to string, m Message) {
	b.n.sent++
	for _, h := range b.n.hubs {
		if h != b.self && h.Here(to) {
			h.Receive(to, m)
		}
	}
}

func (b nodeBus) Ask(about, asker string) (Status, bool) {
	for _, h := range b.n.hubs {
		if h == b.self {
			continue
		}
		if st, ok, here := h.Answer(about, asker); here {
			return st, ok
		}
	}
	return Status{}, false
}

func cluster(n int) *net {
	c := &net{clock: &fakeClock{t: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}}
	for i := range n {
		h := New(string(rune('1'+i)), nil)
		h.SetBus(nodeBus{c, h})
		h.SetClock(c.clock.now)
		c.hubs = append(c.hubs, h)
	}
	return c
}

func friends(of string, ids ...string) Circle { return Circle{Name: of, Friends: ids} }

var mission2 = words.M("grizzled.stage.mission", words.Num("N", 2))

func signalled(s *Session) bool {
	select {
	case <-s.C():
		return true
	default:
		return false
	}
}

// anna's friend bob, on the same node or another, sees her in the lobby,
// then at her public table with its code and how far the game is, then
// away, then gone; carol, who is no friend, is told nothing.
func TestAFriendSeesWhereYouAre(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		c := cluster(nodes)
		hubAnna, hubBob := c.hubs[0], c.hubs[nodes-1]
		bob := hubBob.Join("bob", "bob", friends("bob", "anna"))
		carol := hubBob.Join("carol", "carol", friends("carol"))
		anna := hubAnna.Join("anna", "anna", friends("anna", "bob", "carol"))
		if !signalled(bob) || signalled(carol) {
			t.Fatalf("%d nodes: anna's coming signalled bob %v, carol %v", nodes, true, true)
		}
		if st := bob.Friends()["anna"]; st.Place.Where != InLobby || !st.Online() {
			t.Fatalf("%d nodes: bob sees anna as %+v", nodes, st)
		}
		if st := anna.Friends()["bob"]; st.Place.Where != InLobby {
			t.Fatalf("%d nodes: anna sees bob as %+v (the answer to her coming)", nodes, st)
		}
		anna.Set(Place{Where: AtTable, Game: "grizzled", Code: "K7QX", Started: true, Stage: mission2, Players: []string{"anna"}})
		if !signalled(bob) {
			t.Fatalf("%d nodes: anna's table did not signal bob", nodes)
		}
		st := bob.Friends()["anna"]
		if st.Place.Code != "K7QX" || st.Place.Game != "grizzled" || !st.Place.Stage.Equal(mission2) || st.Place.Players != nil {
			t.Fatalf("%d nodes: bob sees anna at %+v", nodes, st.Place)
		}
		if len(carol.Friends()) != 0 {
			t.Fatalf("%d nodes: carol, who did not befriend anna, sees %+v", nodes, carol.Friends())
		}
		c.clock.pass(AwayAfter)
		c.clock.key(bob)
		hubAnna.Sweep()
		if st := bob.Friends()["anna"]; !st.Away || st.Place.Code != "K7QX" {
			t.Fatalf("%d nodes: anna idle is not away to bob: %+v", nodes, st)
		}
		anna.Close()
		if _, ok := bob.Friends()["anna"]; ok || !signalled(bob) {
			t.Fatalf("%d nodes: anna gone still shows to bob: %+v", nodes, bob.Friends())
		}
	}
}

// A private table's code is told only to a friend seated at it.
func TestAPrivateCodeOnlyToThoseSeated(t *testing.T) {
	for _, nodes := range []int{1, 3} {
		c := cluster(nodes)
		anna := c.hubs[0].Join("anna", "anna", friends("anna", "bob", "dan"))
		bob := c.hubs[nodes-1].Join("bob", "bob", friends("bob", "anna"))
		dan := c.hubs[nodes/2].Join("dan", "dan", friends("dan", "anna"))
		anna.Set(Place{Where: AtTable, Game: "grizzled", Code: "PRIV2345", Private: true, Players: []string{"anna", "dan"}})
		if got := bob.Friends()["anna"].Place; got.Code != "" || !got.Private || got.Game != "grizzled" {
			t.Fatalf("%d nodes: bob, not seated there, sees %+v", nodes, got)
		}
		if got := dan.Friends()["anna"].Place; got.Code != "PRIV2345" {
			t.Fatalf("%d nodes: dan, seated there, sees %+v", nodes, got)
		}
	}
}

// Presence is mutual: a friendship one side has not made shows nothing
// either way; ignoring or blocking hides you from them; a player who
// shows presence to nobody reads as hidden to friends.
func TestMutualHiddenAndNobody(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		c := cluster(nodes)
		hubA, hubB := c.hubs[0], c.hubs[nodes-1]
		eve := hubB.Join("eve", "eve", friends("eve", "anna")) // anna never befriended eve
		anna := hubA.Join("anna", "anna", Circle{Name: "anna", Friends: []string{"bob", "mal"}, Hidden: []string{"mal"}})
		mal := hubB.Join("mal", "mal", friends("mal", "anna"))
		bob := hubB.Join("bob", "bob", Circle{Name: "bob", Friends: []string{"anna"}, Shows: ToNobody})
		if got := eve.Friends(); len(got) != 0 {
			t.Fatalf("%d nodes: eve, half a friendship, sees %+v", nodes, got)
		}
		if _, ok := anna.Friends()["eve"]; ok {
			t.Fatalf("%d nodes: anna sees eve", nodes)
		}
		if got := mal.Friends(); len(got) != 0 {
			t.Fatalf("%d nodes: mal, whom anna blocks, sees %+v", nodes, got)
		}
		if _, ok := anna.Friends()["mal"]; ok {
			t.Fatalf("%d nodes: anna sees mal, whom she blocks", nodes)
		}
		if st := anna.Friends()["bob"]; !st.Hidden || st.Online() || st.Place.Where != Offline {
			t.Fatalf("%d nodes: bob shows presence to nobody, anna sees %+v", nodes, st)
		}
		if st := bob.Friends()["anna"]; st.Place.Where != InLobby {
			t.Fatalf("%d nodes: bob (hidden himself) sees anna as %+v", nodes, st)
		}
	}
}

// A new friendship (Reload) tells both sides at once; blocking a friend
// (Reload without them) makes each vanish for the other.
func TestReloadAddsAndTakesAway(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		c := cluster(nodes)
		anna := c.hubs[0].Join("anna", "anna", friends("anna"))
		bob := c.hubs[nodes-1].Join("bob", "bob", friends("bob"))
		anna.Set(Place{Where: AtTable, Game: "grizzled", Code: "K7QX"})
		c.hubs[nodes-1].Reload("bob", friends("bob", "anna"))
		c.hubs[0].Reload("anna", friends("anna", "bob"))
		if st := bob.Friends()["anna"]; st.Place.Code != "K7QX" {
			t.Fatalf("%d nodes: bob, now anna's friend, sees %+v", nodes, st)
		}
		if st := anna.Friends()["bob"]; st.Place.Where != InLobby {
			t.Fatalf("%d nodes: anna, now bob's friend, sees %+v", nodes, st)
		}
		c.hubs[0].Reload("anna", Circle{Name: "anna", Hidden: []string{"bob"}}) // anna blocks bob
		if got := bob.Friends(); len(got) != 0 {
			t.Fatalf("%d nodes: bob, blocked by anna, still sees %+v", nodes, got)
		}
		if got := anna.Friends(); len(got) != 0 {
			t.Fatalf("%d nodes: anna still sees %+v", nodes, got)
		}
	}
}

// A player's sessions merge: the one that says most wins, and a player is
// away only when every session is. A node that stops takes what it told
// with it.
func TestSessionsMergeAndANodeGoes(t *testing.T) {
	c := cluster(2)
	bob := c.hubs[0].Join("bob", "bob", friends("bob", "anna"))
	c.hubs[1].Join("anna", "anna", friends("anna", "bob")) // in the lobby, idle
	table := c.hubs[1].Join("anna", "anna", friends("anna", "bob"))
	table.Set(Place{Where: Watching, Game: "werewolf", Code: "W0LF"})
	c.clock.pass(AwayAfter)
	c.clock.key(table)
	c.hubs[1].Sweep()
	if st := bob.Friends()["anna"]; st.Place.Where != Watching || st.Away {
		t.Fatalf("bob sees anna as %+v; want watching, not away", st)
	}
	c.clock.pass(AwayAfter)
	c.hubs[1].Sweep()
	if st := bob.Friends()["anna"]; !st.Away {
		t.Fatalf("both of anna's sessions idle, bob sees %+v", st)
	}
	c.hubs[0].NodeGone("2")
	if got := bob.Friends(); len(got) != 0 {
		t.Fatalf("anna's node stopped; bob still sees %+v", got)
	}
}

// Lookup: a player who shows presence to everyone is seen by whoever
// asks; one who shows it to friends only by friends; nobody by nobody.
func TestLookup(t *testing.T) {
	c := cluster(2)
	c.hubs[1].Join("open", "open", Circle{Name: "open", Shows: ToEveryone})
	c.hubs[1].Join("shy", "shy", Circle{Name: "shy", Friends: []string{"pal"}})
	c.hubs[1].Join("ghost", "ghost", Circle{Name: "ghost", Friends: []string{"pal"}, Shows: ToNobody})
	if st, ok := c.hubs[0].Lookup("stranger", "open"); !ok || st.Place.Where != InLobby {
		t.Errorf("a stranger looking up open: %+v %v", st, ok)
	}
	if _, ok := c.hubs[0].Lookup("stranger", "shy"); ok {
		t.Error("a stranger saw shy")
	}
	if _, ok := c.hubs[1].Lookup("pal", "shy"); !ok {
		t.Error("shy's friend did not see shy")
	}
	if _, ok := c.hubs[0].Lookup("pal", "ghost"); ok {
		t.Error("ghost's friend saw ghost, who shows presence to nobody")
	}
	if _, ok := c.hubs[0].Lookup("pal", "nobody-online"); ok {
		t.Error("a player with no session was seen")
	}
}

// What a change costs: the messages grow with the player's friends online
// elsewhere, not with the players online.
func TestAChangeCostsItsFriendsOnly(t *testing.T) {
	c := cluster(2)
	for i := range 500 {
		id := string(rune(0x1000 + i))
		c.hubs[1].Join(id, id, friends(id))
	}
	c.hubs[1].Join("bob", "bob", friends("bob", "anna"))
	anna := c.hubs[0].Join("anna", "anna", friends("anna", "bob", "carol", "dan"))
	c.sent = 0
	anna.Set(Place{Where: AtTable, Game: "grizzled", Code: "K7QX"})
	if c.sent != 1 {
		t.Errorf("a change of place sent %d messages; want 1 (bob, her one friend online elsewhere)", c.sent)
	}
}

// Away: a player whose sessions had no key for AwayAfter reads as away to
// their friends here and on other nodes (after the sweep, not before),
// where they were; their next key brings them back at once.
func TestAwayAfterNoKeyAndBackAtTheNext(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		c := cluster(nodes)
		hubAnna := c.hubs[0]
		bob := c.hubs[nodes-1].Join("bob", "bob", friends("bob", "anna"))
		anna := hubAnna.Join("anna", "anna", friends("anna", "bob"))
		anna.Set(Place{Where: AtTable, Game: "grizzled", Code: "K7QX", Started: true, Stage: mission2})
		signalled(bob)
		c.clock.pass(AwayAfter - time.Second)
		hubAnna.Sweep()
		if st := bob.Friends()["anna"]; st.Away || signalled(bob) {
			t.Fatalf("%d nodes: anna away to bob a second early: %+v", nodes, st)
		}
		c.clock.pass(awayEvery)
		hubAnna.Sweep()
		st := bob.Friends()["anna"]
		if !st.Away || !st.Online() || st.Place.Code != "K7QX" || !signalled(bob) {
			t.Fatalf("%d nodes: anna idle past AwayAfter: bob sees %+v (signalled: told above); want away at K7QX", nodes, st)
		}
		c.clock.pass(time.Minute)
		c.clock.key(anna)
		if st := bob.Friends()["anna"]; st.Away || st.Place.Code != "K7QX" || !signalled(bob) {
			t.Fatalf("%d nodes: anna pressed a key: bob sees %+v; want back at K7QX at once", nodes, st)
		}
		// A key the sweep raced with is read at the next sweep.
		c.clock.pass(AwayAfter + awayEvery)
		hubAnna.Sweep()
		anna.last.Store(c.clock.t.UnixNano()) // as if the key's flag load came before the sweep's store
		c.clock.pass(awayEvery)
		hubAnna.Sweep()
		if st := bob.Friends()["anna"]; st.Away {
			t.Fatalf("%d nodes: a key during the sweep left anna away: %+v", nodes, st)
		}
	}
}

// A node that stops beating (killed) is taken as dead NodeLapse after its
// last beat: its players read as gone on the other nodes, their friends
// signalled; heard again, the friends' statuses come back.
func TestADeadNodesPlayersLapse(t *testing.T) {
	c := cluster(2)
	bob := c.hubs[0].Join("bob", "bob", friends("bob", "anna"))
	c.hubs[1].Join("anna", "anna", friends("anna", "bob"))
	c.hubs[0].Beat("2")
	c.hubs[0].Beat("1") // its own: not counted
	signalled(bob)
	c.clock.pass(NodeLapse - time.Millisecond)
	c.hubs[0].Sweep()
	if _, ok := bob.Friends()["anna"]; !ok || signalled(bob) {
		t.Fatal("anna's node taken as dead before NodeLapse")
	}
	c.clock.pass(time.Millisecond)
	c.hubs[0].Sweep()
	if got := bob.Friends(); len(got) != 0 || !signalled(bob) {
		t.Fatalf("anna's node silent for NodeLapse: bob still sees %+v", got)
	}
	c.hubs[0].Beat("2") // a partition healed: bob's node asks again
	if st, ok := bob.Friends()["anna"]; !ok || st.Place.Where != InLobby {
		t.Fatalf("anna's node heard again: bob sees %+v %v; want her in the lobby", st, ok)
	}
}

// A friend seen going (their session closed here, their node said they
// left, their node died) reads as offline with when they went; one who
// shows presence to nobody leaves no trace.
func TestAFriendSeenGoingKeepsWhen(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		c := cluster(nodes)
		bob := c.hubs[0].Join("bob", "bob", friends("bob", "anna", "ghost"))
		anna := c.hubs[nodes-1].Join("anna", "anna", friends("anna", "bob"))
		ghost := c.hubs[nodes-1].Join("ghost", "ghost", Circle{Name: "ghost", Friends: []string{"bob"}, Shows: ToNobody})
		if st, ok := bob.Friend("anna"); !ok || !st.Seen.IsZero() {
			t.Fatalf("%d nodes: anna online: %+v %v", nodes, st, ok)
		}
		c.clock.pass(time.Hour)
		went := c.clock.t
		anna.Close()
		ghost.Close()
		if st, ok := bob.Friend("anna"); ok || !st.Seen.Equal(went) {
			t.Fatalf("%d nodes: anna gone: bob reads %+v %v; want offline, seen at %v", nodes, st, ok, went)
		}
		if st, _ := bob.Friend("ghost"); !st.Seen.IsZero() {
			t.Fatalf("%d nodes: ghost, who shows presence to nobody, was seen going at %v", nodes, st.Seen)
		}
	}
	c := cluster(2)
	bob := c.hubs[0].Join("bob", "bob", friends("bob", "anna"))
	c.hubs[1].Join("anna", "anna", friends("anna", "bob"))
	c.hubs[0].Beat("2")
	c.clock.pass(NodeLapse)
	c.hubs[0].Sweep()
	if st, ok := bob.Friend("anna"); ok || !st.Seen.Equal(c.clock.t) {
		t.Fatalf("anna's node died: bob reads %+v %v; want offline, seen when it was taken as dead", st, ok)
	}
}

// A node with no session says so (Quiet) and stops beating: it is not
// taken as dead for its silence, and when its first player comes, what
// it tells arrives as a login's would, with nobody asked again when its
// beats resume. From then on its silence counts again.
func TestAQuietNodeIsNotTakenAsDead(t *testing.T) {
	c := cluster(2)
	bob := c.hubs[0].Join("bob", "bob", friends("bob", "anna"))
	c.hubs[0].Beat("2")
	c.hubs[0].Quiet("2")
	c.clock.pass(10 * NodeLapse)
	c.hubs[0].Sweep()
	if !c.hubs[0].Hears("2") {
		t.Fatal("a quiet node, silent past NodeLapse, taken as dead")
	}
	c.hubs[1].Join("anna", "anna", friends("anna", "bob"))
	if st, ok := bob.Friend("anna"); !ok || st.Place.Where != InLobby {
		t.Fatalf("anna came on the quiet node: bob sees %+v %v; want her in the lobby", st, ok)
	}
	sent := c.sent
	c.hubs[0].Beat("2")
	if c.sent != sent {
		t.Fatalf("the quiet node beat again: %d messages sent; want none (nobody asked again)", c.sent-sent)
	}
	c.clock.pass(NodeLapse)
	c.hubs[0].Sweep()
	if got := bob.Friends(); len(got) != 0 {
		t.Fatalf("anna's node beat, then fell silent for NodeLapse: bob still sees %+v", got)
	}
	// Taken as dead, then quiet: alive, and its next beat asks nobody.
	c.hubs[0].Quiet("2")
	if !c.hubs[0].Hears("2") {
		t.Fatal("a node taken as dead said it is quiet: still taken as dead")
	}
	sent = c.sent
	c.hubs[0].Beat("2")
	if c.sent != sent {
		t.Fatalf("a quiet node's beat after it was taken as dead: %d messages sent; want none", c.sent-sent)
	}
}

// Run says the node is quiet while it has no player, beats at once when
// one comes, and says it is quiet again within a beat of the last one
// leaving.
func TestRunBeatsOnlyWithPlayers(t *testing.T) {
	h := New("1", nil)
	var beats, quiets atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.Run(ctx, func() { beats.Add(1) }, func() { quiets.Add(1) }) }()
	defer func() { cancel(); <-done }()
	counts := func(b, q int32) func() error {
		return func() error {
			if beats.Load() < b || quiets.Load() != q {
				return fmt.Errorf("%d beats, %d quiet; want %d or more, %d", beats.Load(), quiets.Load(), b, q)
			}
			return nil
		}
	}
	clocktest.CheckFor(t, time.Second, 5*time.Millisecond, counts(0, 1))
	if n := beats.Load(); n != 0 {
		t.Fatalf("%d beats with nobody here", n)
	}
	s := h.Join("anna", "anna", friends("anna"))
	clocktest.CheckFor(t, BeatEvery/2, 5*time.Millisecond, counts(1, 1)) // at once, not a beat later
	clocktest.CheckFor(t, 3*BeatEvery, 5*time.Millisecond, counts(2, 1))
	s.Close()
	clocktest.CheckFor(t, 2*BeatEvery, 5*time.Millisecond, counts(0, 2))
}
