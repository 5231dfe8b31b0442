package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
)

// fast keepalives, so a lost node is noticed within a test's patience
// (a dead owner is noticed at once: nobody answers for the room).
var fast = Options{Keepalive: time.Second, CallTimeout: 5 * time.Second, ResumeWithin: 2 * time.Second}

// TestAcrossNodes runs the cluster's tests on one 3-node loopback cluster
// (A, B, C: the tables live on B), which the last one kills a node of.
func TestAcrossNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	cl := natstest.Start(t, 3, nil)
	t.Run("whole game", func(t *testing.T) { testWholeGame(t, cl) })
	t.Run("owner moves", func(t *testing.T) { testOwnerMoves(t, cl) })
	t.Run("table handed over", func(t *testing.T) { testTableHandedOver(t, cl) })
	t.Run("owner lost", func(t *testing.T) { testOwnerLost(t, cl) })
}

// Players on nodes A and C play a whole Grizzled game, with two bots, at
// a table whose actor runs on node B; they chat; every update each one
// gets is exactly its own seat's view, as the owner's log replays it.
func testWholeGame(t *testing.T, cl *natstest.Cluster) {
	ctx := timeout(t, 90*time.Second)
	a, b, c := connect(t, cl, 0), connect(t, cl, 1), connect(t, cl, 2)

	// A listener on node C hears every session subject: nodes are trusted
	// (see the package doc); it checks what travels where.
	spy := map[string][]game.Seat{}
	var spyMu sync.Mutex
	sub, err := c.Subscribe("bivouac.session.>", func(m *nats.Msg) {
		var d delivery
		if err := json.Unmarshal(m.Data, &d); err != nil || d.Update == nil {
			return
		}
		u, err := table.DecodeUpdate(grizzled.Game{}, d.Update)
		if err != nil {
			t.Errorf("a delivery on %s does not decode: %v", m.Subject, err)
			return
		}
		spyMu.Lock()
		spy[m.Subject] = append(spy[m.Subject], u.Seat)
		spyMu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()

	j := &memJournal{}
	room := grizzledRoom(t, ctx, 4, 2, j)
	owner, err := Serve(b, room, grizzled.Game{}, fast)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	onA, onC := dial(t, ctx, a, room, fast), dial(t, ctx, c, room, fast)
	alice, bob := join(t, ctx, onA, "p0"), join(t, ctx, onC, "p1")
	if alice.seat != 0 || bob.seat != 1 {
		t.Fatalf("seats %d and %d, want 0 and 1", alice.seat, bob.seat)
	}
	alice.until(t, ctx, func(u table.Update) bool { return u.Seats[1].Connected })
	if got := onA.Summary(); got.Game != "grizzled" || len(got.Players) != 2 {
		t.Fatalf("node A's summary of the room: %+v", got)
	}

	// Someone who names a session that is not theirs acts for nobody.
	if err := onC.call(ctx, opStart, request{Session: "p0"}, nil); !errors.Is(err, table.ErrNotSeated) {
		t.Fatalf("a request naming a made-up session: %v, want ErrNotSeated", err)
	}
	// Only the host may start, and the refusal comes back as the same error.
	if err := onC.Start(ctx, bob.box); !errors.Is(err, table.ErrNotHost) {
		t.Fatalf("bob starts: %v, want ErrNotHost", err)
	}

	if err := onA.Say(alice.box, "hello from A"); err != nil {
		t.Fatal(err)
	}
	bob.until(t, ctx, func(u table.Update) bool { return hasLine(u, "hello from A") })
	if err := onA.Start(ctx, alice.box); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	seen := map[game.Seat][]table.Update{}
	var wg sync.WaitGroup
	for _, p := range []*player{alice, bob} {
		wg.Go(func() {
			said := false
			acted := -1
			for {
				u, ok := p.box.Next(ctx)
				if !ok || u.Closed != table.Open {
					t.Errorf("seat %d: the game did not end (closed %v)", p.seat, u.Closed)
					return
				}
				mu.Lock()
				seen[p.seat] = append(seen[p.seat], u)
				mu.Unlock()
				if u.Over {
					return
				}
				if p == bob && u.Started && !said {
					said = true
					p.room.Say(p.box, "hi from C")
				}
				if a, ok := p.move(u); ok && u.Seq > acted {
					acted = u.Seq
					if err := p.room.Act(p.box, u.Seq, a); err != nil {
						t.Errorf("seat %d acts: %v", p.seat, err)
					}
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	heard := false
	for _, p := range []*player{alice, bob} {
		want := j.viewsBySeq(t, p.seat)
		ups := seen[p.seat]
		if !ups[len(ups)-1].Over {
			t.Fatalf("seat %d's last update is not the game's end", p.seat)
		}
		for _, u := range ups {
			if u.Seat != p.seat {
				t.Fatalf("seat %d got an update for seat %d", p.seat, u.Seat)
			}
			if !u.Started {
				if u.View != nil {
					t.Fatalf("seat %d: a view before the game", p.seat)
				}
				continue
			}
			got, err := grizzled.Game{}.EncodeView(u.View)
			if err != nil {
				t.Fatalf("seat %d: update %d's view: %v", p.seat, u.Seq, err)
			}
			if !bytes.Equal(got, want[u.Seq]) {
				t.Fatalf("seat %d at %d got\n%s\nthe owner's view is\n%s", p.seat, u.Seq, got, want[u.Seq])
			}
			for _, e := range u.Log {
				if !e.Audience.Includes(p.seat) {
					t.Fatalf("seat %d was told an event for %v", p.seat, e.Audience)
				}
			}
			heard = heard || (p == alice && hasLine(u, "hi from C"))
		}
	}
	if !heard {
		t.Fatal("alice on A never read bob's line from C")
	}

	spyMu.Lock()
	defer spyMu.Unlock()
	if len(spy) != 2 {
		t.Fatalf("deliveries went to %d session subjects, want 2 (one a session)", len(spy))
	}
	for subj, seats := range spy {
		id := strings.TrimPrefix(subj, "bivouac.session.")
		if len(id) != 32 {
			t.Fatalf("session subject %s: the id is not 128 random bits", subj)
		}
		for _, s := range seats {
			if s != seats[0] {
				t.Fatalf("subject %s carried seats %d and %d", subj, seats[0], s)
			}
		}
	}
}

func hasLine(u table.Update, text string) bool {
	for _, e := range u.Log {
		if e.Kind == game.Chat && e.Text == text {
			return true
		}
	}
	return false
}

// A node that loses its NATS connection tells its sessions their table
// closed, and the owner detaches them (the seat shows away). When the
// owner's node dies (its NATS server and its connection), a session on
// another node is told the same, as a restart would tell it, and its
// calls fail rather than hang.
func testOwnerLost(t *testing.T, cl *natstest.Cluster) {
	ctx := timeout(t, 60*time.Second)
	a, b, c := connect(t, cl, 0), connect(t, cl, 1), connect(t, cl, 2)
	room := grizzledRoom(t, ctx, 3, 0, nil)
	owner, err := Serve(b, room, grizzled.Game{}, fast)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	local := join(t, ctx, room, "p0")
	onA, onC := dial(t, ctx, a, room, fast), dial(t, ctx, c, room, fast)
	// Asked once the owner's interest has reached node A (the dial waited for it).
	if !Served(ctx, a, room.Code()) {
		t.Fatal("a room its owner serves is not Served")
	}
	alice := join(t, ctx, onA, "p1")
	carol := join(t, ctx, onC, "p2")

	// Node C's connection goes: carol hears her table closed, and the
	// owner detaches her session.
	c.Close()
	closed(t, ctx, carol)
	local.until(t, ctx, func(u table.Update) bool { return len(u.Seats) == 3 && !u.Seats[2].Connected })

	// Node B dies: alice on A hears the table closed.
	cl.Nodes[1].Shutdown()
	b.Close()
	closed(t, ctx, alice)
	if err := onA.Act(alice.box, 0, grizzled.Action{}); !errors.Is(err, table.ErrNotSeated) {
		t.Fatalf("a move after the table closed: %v, want ErrNotSeated", err)
	}
	// A request sent while node A still held B's interest went down the
	// dying route and gets no answer (ErrBusy); once A has dropped the
	// interest, nobody serves the room.
	for {
		_, err := Dial(ctx, a, room.Code(), games, fast)
		if errors.Is(err, table.ErrClosed) {
			break
		}
		if !errors.Is(err, table.ErrBusy) {
			t.Fatalf("dialling a room nobody serves: %v, want ErrClosed", err)
		}
	}
	if Served(ctx, a, room.Code()) {
		t.Fatal("a room whose owner died is Served")
	}
}

// When the table's owner is lost and another node serves the table
// within moments, a session on a third node is kept at it (issue 41): it
// is told the table moved, one moment, then sits again in its seat with
// no join of its own, and plays on.
func testOwnerMoves(t *testing.T, cl *natstest.Cluster) {
	ctx := timeout(t, 60*time.Second)
	a, b, c := connect(t, cl, 0), connect(t, cl, 1), connect(t, cl, 2)
	room := grizzledRoom(t, ctx, 2, 0, nil)
	owner, err := Serve(b, room, grizzled.Game{}, fast)
	if err != nil {
		t.Fatal(err)
	}
	host := join(t, ctx, room, "p0")
	onA := dial(t, ctx, a, room, fast)
	alice := join(t, ctx, onA, "p1")
	alice.until(t, ctx, func(u table.Update) bool { return len(u.Seats) == 2 })
	carol := join(t, ctx, onA, "p2") // the table is full: she watches
	carol.until(t, ctx, func(u table.Update) bool { return u.Seat == game.Spectator })

	owner.Close() // as when its node died: nobody answers for the room
	alice.until(t, ctx, func(u table.Update) bool { return u.Info.Key == "table.moving" })
	carol.until(t, ctx, func(u table.Update) bool { return u.Info.Key == "table.moving_watch" }) // no seat to keep
	if err := onA.Say(alice.box, "hello?"); !errors.Is(err, table.ErrBusy) {
		t.Fatalf("a call between owners: %v, want ErrBusy", err)
	}
	moved, err := Serve(c, room, grizzled.Game{}, fast) // another node runs it now
	if err != nil {
		t.Fatal(err)
	}
	defer moved.Close()
	u := alice.until(t, ctx, func(u table.Update) bool { return u.Info.IsZero() })
	if u.Seat != alice.seat {
		t.Fatalf("alice sits again at seat %d, sat at %d", u.Seat, alice.seat)
	}
	start, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := room.Start(start, host.box); err != nil {
		t.Fatal(err)
	}
	// Her move goes through the new owner.
	for {
		u := alice.until(t, ctx, func(u table.Update) bool { return u.Started })
		if act, ok := alice.move(u); ok {
			if err := onA.ActNow(start, alice.box, u.Seq, act); err != nil {
				t.Fatalf("alice's move through the new owner: %v", err)
			}
			break
		}
		if act, ok := host.move(host.until(t, ctx, func(u table.Update) bool { return u.Started })); ok {
			if err := room.ActNow(start, host.box, u.Seq, act); err != nil && !errors.Is(err, game.ErrNotYourTurn) {
				t.Fatal(err)
			}
		}
	}
}

// A drain closes the table at its owner with table.Moved, which the
// owner passes on: the seat is told "the table moved, one moment" over
// its last view, never that the table closed (the drain flake: the
// closing Update was kept as the last view and shown with the notice,
// so a player read "table closed" until the new owner's first view).
func testTableHandedOver(t *testing.T, cl *natstest.Cluster) {
	ctx := timeout(t, 30*time.Second)
	a, b := connect(t, cl, 0), connect(t, cl, 1)
	room := grizzledRoom(t, ctx, 2, 0, nil)
	owner, err := Serve(b, room, grizzled.Game{}, fast)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	join(t, ctx, room, "p0")
	onA := dial(t, ctx, a, room, fast)
	alice := join(t, ctx, onA, "p1")
	last := alice.until(t, ctx, func(u table.Update) bool { return len(u.Seats) == 2 })

	room.Close(table.Moved) // as a drain does: its sessions hear why
	u := alice.until(t, ctx, func(u table.Update) bool { return u.Info.Key == "table.moving" })
	if u.Seat != last.Seat || len(u.Seats) != 2 {
		t.Fatalf("the moving notice is not shown over the last view: %+v", u)
	}
}

// closed waits until p is told its table closed.
func closed(t *testing.T, ctx context.Context, p *player) {
	t.Helper()
	for {
		u, ok := p.box.Next(ctx)
		if !ok {
			t.Fatalf("seat %d was never told the table closed", p.seat)
		}
		if u.Closed == table.Moved { // the table's node went; this one did not
			return
		}
	}
}
