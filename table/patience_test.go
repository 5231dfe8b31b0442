package table

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// clockedLease is valid until a set instant on a test clock, as a held
// lease whose renewals stopped getting through.
type clockedLease struct {
	clock *clocktest.Manual
	mu    sync.Mutex
	until time.Time
	lost  chan struct{}
}

func (l *clockedLease) Valid() bool { return l.clock.Now().Before(l.ValidUntil()) }
func (l *clockedLease) ValidUntil() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.until
}
func (l *clockedLease) Lost() <-chan struct{}         { return l.lost }
func (l *clockedLease) Release(context.Context) error { return nil }

// deafJournal answers no append once deaf is set, and counts the attempts
// and when (on the test clock) each was made. stores: it takes the entry
// all the same, as a store whose answer was lost.
type deafJournal struct {
	*MemJournal
	clock    *clocktest.Manual
	deaf     atomic.Bool
	stores   bool
	onDeaf   func() // called on each unanswered append
	mu       sync.Mutex
	attempts []time.Time
}

func (j *deafJournal) Append(room string, seq uint64, entry []byte) error {
	if !j.deaf.Load() {
		return j.MemJournal.Append(room, seq, entry)
	}
	j.mu.Lock()
	j.attempts = append(j.attempts, j.clock.Now())
	j.mu.Unlock()
	if j.stores {
		_ = j.MemJournal.Append(room, seq, entry)
	}
	if j.onDeaf != nil {
		j.onDeaf()
	}
	return errors.New("nats: timeout")
}

func (j *deafJournal) tries() []time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]time.Time(nil), j.attempts...)
}

// actInBackground makes bob's move and returns where its answer comes.
func actInBackground(r *Room, b *Mailbox) <-chan error {
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done <- r.ActNow(ctx, b, 1, 1)
	}()
	return done
}

// An append the store does not answer is tried again only while the lease
// is valid: the moment its validity runs out (a paused node, a cluster
// without its majority) the room stops trying, without waiting for the
// lease to be lost, and tells its players the move is not confirmed.
func TestRoomStopsRetryingTheMomentItsLeaseIsNoLongerValid(t *testing.T) {
	clk := clocktest.New()
	lease := &clockedLease{clock: clk, until: clk.Now().Add(time.Hour), lost: make(chan struct{})}
	j := &deafJournal{MemJournal: NewMemJournal(), clock: clk}
	_, r, a, b := leasedGameOn(t, clk, lease, j)
	expiry := clk.Now().Add(250 * time.Millisecond)
	lease.mu.Lock()
	lease.until = expiry
	lease.mu.Unlock()
	j.deaf.Store(true)
	live := clk.Live()
	answer := actInBackground(r, b)
	for clk.Now().Before(expiry) {
		clk.WaitTimers(t, live+1) // the actor waits to try again
		clk.Advance(storeRetry)
	}
	select {
	case err := <-answer:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("the move's answer: %v, want ErrClosed (the close says why)", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the room still waits on a store it may no longer write to")
	}
	for _, at := range j.tries() {
		if !at.Before(expiry) {
			t.Fatalf("an append tried at %v, after the lease's validity ended at %v", at, expiry)
		}
	}
	if n := len(j.tries()); n != 3 {
		t.Fatalf("%d appends tried, want 3 (at 0, 100 and 200 ms)", n)
	}
	closedFor(t, a, Unconfirmed)
	closedFor(t, b, Unconfirmed)
	<-r.Done()
}

// A write the store took but did not answer in time (the node paused, its
// lease ran out meanwhile) is not reported as a failed save: the players
// hear it is not confirmed, and the log holds the move for whoever runs
// the room next.
func TestAnUnansweredButStoredMoveIsNotReportedAsRefused(t *testing.T) {
	clk := clocktest.New()
	lease := &clockedLease{clock: clk, until: clk.Now().Add(time.Hour), lost: make(chan struct{})}
	j := &deafJournal{MemJournal: NewMemJournal(), clock: clk, stores: true}
	j.onDeaf = func() { // the node paused past its lease while the write was out
		lease.mu.Lock()
		lease.until = clk.Now()
		lease.mu.Unlock()
	}
	_, r, a, b := leasedGameOn(t, clk, lease, j)
	before := len(j.Log(r.Code()))
	j.deaf.Store(true)
	if err := <-actInBackground(r, b); !errors.Is(err, ErrClosed) {
		t.Fatalf("the move's answer: %v, want ErrClosed, not a refusal", err)
	}
	for _, box := range []*Mailbox{a, b} {
		u := waitFor(t, box, "closed", func(u Update) bool { return u.Closed != Open })
		if u.Closed != Unconfirmed {
			t.Fatalf("closed for %v (%s), want Unconfirmed", u.Closed, u.Closed.Key())
		}
	}
	if got := len(j.Log(r.Code())); got != before+1 {
		t.Fatalf("log has %d entries, want %d: the store took the move", got, before+1)
	}
	if n := len(j.tries()); n != 1 {
		t.Fatalf("%d appends tried with an invalid lease, want 1", n)
	}
}

// leasedGameOn is leasedGame on a test clock.
func leasedGameOn(t *testing.T, clk *clocktest.Manual, lease Lease, j Journal) (*Hub, *Room, *Mailbox, *Mailbox) {
	t.Helper()
	h, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Lease: lease, Journal: j, Clock: clk})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, b := NewMailbox(), NewMailbox()
	for i, p := range []struct {
		id  string
		box *Mailbox
	}{{"alice", a}, {"bob", b}} {
		if _, err := r.Join(ctx, Player{ID: p.id, Name: p.id}, p.box, false); err != nil {
			t.Fatal(i, err)
		}
	}
	if err := r.Start(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := r.ActNow(ctx, a, 0, 1); err != nil {
		t.Fatal(err)
	}
	return h, r, a, b
}
