package table

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// testLease is a lease the test turns invalid or loses by hand.
type testLease struct {
	invalid  atomic.Bool
	lost     chan struct{}
	released atomic.Bool
}

func newTestLease() *testLease { return &testLease{lost: make(chan struct{})} }

func (l *testLease) Valid() bool { return !l.invalid.Load() }
func (l *testLease) ValidUntil() time.Time {
	if l.invalid.Load() {
		return time.Time{}
	}
	return time.Now().Add(time.Hour)
}
func (l *testLease) Lost() <-chan struct{}             { return l.lost }
func (l *testLease) Release(ctx context.Context) error { l.released.Store(true); return nil }

// fencedJournal refuses appends once another node has written first.
type fencedJournal struct {
	*MemJournal
	fenced atomic.Bool
}

func (j *fencedJournal) Append(room string, seq uint64, entry []byte) error {
	if j.fenced.Load() {
		return fmt.Errorf("%w: number %d taken", ErrNotOwner, seq)
	}
	return j.MemJournal.Append(room, seq, entry)
}

// leasedGame starts a two-seat race under lease with journal j, makes one
// move, and returns the room and both players' mailboxes.
func leasedGame(t *testing.T, lease Lease, j Journal) (*Hub, *Room, *Mailbox, *Mailbox) {
	t.Helper()
	h, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Lease: lease, Journal: j})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, b := NewMailbox(), NewMailbox()
	if _, err := r.Join(ctx, Player{ID: "alice", Name: "alice"}, a, false); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Join(ctx, Player{ID: "bob", Name: "bob"}, b, false); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := r.ActNow(ctx, a, 0, 1); err != nil {
		t.Fatal(err)
	}
	return h, r, a, b
}

func closedFor(t *testing.T, box *Mailbox, want CloseReason) {
	t.Helper()
	waitFor(t, box, fmt.Sprintf("closed %v", want), func(u Update) bool {
		if u.Closed != Open && u.Closed != want {
			t.Fatalf("closed for %v, want %v", u.Closed, want)
		}
		return u.Closed == want
	})
}

// A suspended lease (run out, not lost: the cluster electing a leader)
// makes the room refuse moves and lines, changing nothing, and go on; once
// the lease is valid again the same move is accepted.
func TestRoomWithASuspendedLeaseRefusesChangesAndGoesOn(t *testing.T) {
	for _, what := range []string{"move", "line"} {
		t.Run(what, func(t *testing.T) {
			lease, j := newTestLease(), NewMemJournal()
			h, r, _, b := leasedGame(t, lease, j)
			before := len(j.Log(r.Code()))
			lease.invalid.Store(true)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if what == "move" {
				if err := r.ActNow(ctx, b, 1, 1); !errors.Is(err, ErrBusy) {
					t.Fatalf("a move with a suspended lease: %v, want ErrBusy", err)
				}
			} else {
				r.Say(b, "still here?")
				waitFor(t, b, "a notice", func(u Update) bool { return u.Notice.Key != "" })
			}
			if got := len(j.Log(r.Code())); got != before {
				t.Fatalf("log grew from %d to %d entries while the lease was suspended", before, got)
			}
			select {
			case <-r.Done():
				t.Fatal("the room stopped on a suspended lease")
			default:
			}
			lease.invalid.Store(false)
			if err := r.ActNow(ctx, b, 1, 1); err != nil {
				t.Fatalf("the move once the lease is valid again: %v", err)
			}
			if got := len(j.Log(r.Code())); got != before+1 {
				t.Fatalf("log has %d entries, want %d", got, before+1)
			}
			if h.Local(r.Code()) == nil {
				t.Fatal("the hub lost the room")
			}
		})
	}
}

// flakyJournal does not answer the first fails appends (saveFails record
// saves), as a store whose replicated log is electing a leader.
type flakyJournal struct {
	*MemJournal
	fails, saveFails atomic.Int32
}

func (j *flakyJournal) SaveRoom(rec RoomRecord) error {
	if j.saveFails.Add(-1) >= 0 {
		return errors.New("nats: JetStream system temporarily unavailable")
	}
	return j.MemJournal.SaveRoom(rec)
}

func (j *flakyJournal) Append(room string, seq uint64, entry []byte) error {
	if j.fails.Add(-1) >= 0 {
		return errors.New("nats: timeout")
	}
	return j.MemJournal.Append(room, seq, entry)
}

// In a cluster, an append the store does not answer is tried again: the
// move goes through once the store answers, and the room goes on.
func TestRoomTriesAnUnansweredAppendAgain(t *testing.T) {
	j := &flakyJournal{MemJournal: NewMemJournal()}
	_, r, a, b := leasedGame(t, newTestLease(), j)
	before := len(j.Log(r.Code()))
	j.fails.Store(3)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.ActNow(ctx, b, 1, 1); err != nil {
		t.Fatalf("the move after 3 unanswered appends: %v", err)
	}
	if got := len(j.Log(r.Code())); got != before+1 {
		t.Fatalf("log has %d entries, want %d", got, before+1)
	}
	if err := r.ActNow(ctx, a, 2, 1); err != nil {
		t.Fatalf("the next move: %v", err)
	}
}

func TestRoomStopsWhenItsLeaseIsLost(t *testing.T) {
	lease, j := newTestLease(), NewMemJournal()
	_, r, a, b := leasedGame(t, lease, j)
	saved, _ := j.Room(r.Code())
	close(lease.lost)
	closedFor(t, a, Moved)
	closedFor(t, b, Moved)
	<-r.Done()
	if after, _ := j.Room(r.Code()); !after.Updated.Equal(saved.Updated) || after.Status != saved.Status {
		t.Fatalf("a room that lost its lease saved its record again: %+v", after)
	}
}

func TestRoomStopsWhenAnotherNodeAppendedFirst(t *testing.T) {
	j := &fencedJournal{MemJournal: NewMemJournal()}
	_, r, _, b := leasedGame(t, newTestLease(), j)
	j.fenced.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.ActNow(ctx, b, 1, 2); err == nil {
		t.Fatal("a fenced move was accepted")
	}
	u := waitFor(t, b, "closed", func(u Update) bool { return u.Closed != Open })
	if u.Closed != Moved {
		t.Fatalf("closed for %v, want Moved", u.Closed)
	}
	<-r.Done()
}

func TestUnreachableRoomAnswersEveryCallWithWhy(t *testing.T) {
	why := game.NewError("table.err.elsewhere")
	r := Unreachable(Summary{Code: "ABCD"}, why)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := r.Join(ctx, Player{ID: "x"}, NewMailbox(), false); err != why {
		t.Fatalf("Join: %v, want %v", err, why)
	}
	if err := r.Act(NewMailbox(), 0, 1); err != why {
		t.Fatalf("Act: %v, want %v", err, why)
	}
	if r.Summary().Code != "ABCD" {
		t.Fatalf("summary %+v", r.Summary())
	}
	r.Close(Restarting) // returns: there is no actor to tell
}

// A join or a start, which the room's record keeps, is refused while the
// lease is suspended (the record cannot be saved), and goes through after.
func TestRoomWithASuspendedLeaseRefusesJoinsAndStarts(t *testing.T) {
	lease := newTestLease()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Lease: lease, Journal: NewMemJournal()})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, b := NewMailbox(), NewMailbox()
	if _, err := r.Join(ctx, Player{ID: "alice", Name: "alice"}, a, false); err != nil {
		t.Fatal(err)
	}
	lease.invalid.Store(true)
	if _, err := r.Join(ctx, Player{ID: "bob", Name: "bob"}, b, false); !errors.Is(err, ErrBusy) {
		t.Fatalf("a join with a suspended lease: %v, want ErrBusy", err)
	}
	if err := r.Start(ctx, a); !errors.Is(err, ErrBusy) {
		t.Fatalf("a start with a suspended lease: %v, want ErrBusy", err)
	}
	if r.Summary().Status != StatusWaiting {
		t.Fatalf("the room is %v, want still waiting", r.Summary().Status)
	}
	lease.invalid.Store(false)
	if _, err := r.Join(ctx, Player{ID: "bob", Name: "bob"}, b, false); err != nil {
		t.Fatalf("the join once the lease is valid again: %v", err)
	}
	if err := r.Start(ctx, a); err != nil {
		t.Fatalf("the start once the lease is valid again: %v", err)
	}
}

// In a cluster, a record save the store did not take is tried again: a
// join made meanwhile is in the record once the store answers.
func TestRoomTriesAnUnansweredRecordSaveAgain(t *testing.T) {
	j := &flakyJournal{MemJournal: NewMemJournal()}
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Lease: newTestLease(), Journal: j})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	j.saveFails.Store(3)
	if _, err := r.Join(ctx, Player{ID: "bob", Name: "bob"}, NewMailbox(), false); err != nil {
		t.Fatalf("a join while the store did not answer 3 saves: %v", err)
	}
	rec, ok := j.Room(r.Code())
	if !ok {
		t.Fatal("no record saved")
	}
	found := false
	for _, s := range rec.Seats {
		found = found || s.Identity == "bob"
	}
	if !found {
		t.Fatalf("bob's seat is not in the saved record: %+v", rec.Seats)
	}
}
