package notice

import (
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type relayed []Notice

func (r *relayed) Relay(n Notice) { *r = append(*r, n) }

func signalled(in *Inbox) bool {
	select {
	case <-in.C():
		return true
	default:
		return false
	}
}

// A notice reaches every session of its player on this node, and no one
// else's, and goes to the relay for the other nodes; what a relay
// delivers stays on this node.
func TestPostReachesEverySessionOfThePlayer(t *testing.T) {
	now := t0
	b := NewBoard(func() time.Time { return now })
	var r relayed
	b.SetRelay(&r)
	bob1, bob2, carol := b.Open("bob"), b.Open("bob"), b.Open("carol")
	n := Notice{ID: "invite:K7QX", To: "bob", From: "anna", Text: words.M("ui.invite.came"), Act: Act{Verb: VerbJoin, Arg: "K7QX"}}
	if got := b.Post(n); got != 2 {
		t.Fatalf("Post reached %d sessions here, want 2", got)
	}
	for _, in := range []*Inbox{bob1, bob2} {
		if !signalled(in) {
			t.Error("a session of bob was not signalled")
		}
		got := in.Take()
		if len(got) != 1 || got[0].Act.Arg != "K7QX" || !got[0].Until.Equal(t0.Add(Life)) {
			t.Errorf("bob took %+v", got)
		}
	}
	if signalled(carol) || len(carol.Take()) != 0 {
		t.Error("carol got bob's notice")
	}
	if len(r) != 1 || r[0].To != "bob" {
		t.Errorf("relayed %+v, want bob's notice once", r)
	}
	if got := b.Deliver(Notice{ID: "x", To: "carol", Text: words.M("k")}); got != 1 || len(r) != 1 {
		t.Errorf("Deliver reached %d and relayed %d, want 1 and no relay", got, len(r)-1)
	}
}

// A lapsed notice is not delivered; a closed inbox gets nothing; a full
// inbox lets its oldest notice go.
func TestLapsedClosedAndFull(t *testing.T) {
	now := t0
	b := NewBoard(func() time.Time { return now })
	in := b.Open("bob")
	if got := b.Post(Notice{ID: "old", To: "bob", Until: t0.Add(-time.Second)}); got != 0 {
		t.Errorf("a lapsed notice reached %d sessions", got)
	}
	for i := range MaxQueued + 3 {
		b.Post(Notice{ID: fmt.Sprint(i), To: "bob"})
	}
	got := in.Take()
	if len(got) != MaxQueued || got[0].ID != "3" || got[len(got)-1].ID != fmt.Sprint(MaxQueued+2) {
		t.Errorf("a full inbox kept %d, first %q", len(got), got[0].ID)
	}
	in.Close()
	in.Close() // twice is harmless
	if b.Here("bob") {
		t.Error("bob is still here after his only session closed")
	}
	if got := b.Post(Notice{ID: "late", To: "bob"}); got != 0 || len(in.Take()) != 0 {
		t.Error("a closed inbox got a notice")
	}
}

// A session's list replaces a notice posted again under its ID, drops a
// withdrawn one and a lapsed one, rings for new ones only, and keeps at
// most MaxLive.
func TestListReplacesWithdrawsAndLapses(t *testing.T) {
	var l List
	if !l.Add([]Notice{{ID: "a", Until: t0.Add(time.Minute)}, {ID: "b", Until: t0.Add(2 * time.Minute), Quiet: true}}, t0) {
		t.Error("a new notice did not ring")
	}
	if l.Add([]Notice{{ID: "b", Until: t0.Add(3 * time.Minute), Quiet: true}}, t0) {
		t.Error("a quiet notice rang")
	}
	if n, _ := l.Newest(t0); n.ID != "b" || !n.Until.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("newest %+v, want b replaced", n)
	}
	if got := l.NextLapse(); !got.Equal(t0.Add(time.Minute)) {
		t.Errorf("next lapse %v", got)
	}
	l.Add([]Notice{{ID: "b", Gone: true}}, t0)
	if n, _ := l.Newest(t0); n.ID != "a" {
		t.Errorf("after b was withdrawn the newest is %q", n.ID)
	}
	if live := l.Live(t0.Add(time.Minute)); len(live) != 0 {
		t.Errorf("a lapsed notice is still live: %+v", live)
	}
	for i := range MaxLive + 2 {
		l.Add([]Notice{{ID: fmt.Sprint(i)}}, t0)
	}
	if live := l.Live(t0); len(live) != MaxLive || live[0].ID != "2" {
		t.Errorf("kept %d, oldest %q", len(live), live[0].ID)
	}
	l.Remove("2")
	if live := l.Live(t0); len(live) != MaxLive-1 {
		t.Errorf("Remove left %d", len(live))
	}
}
