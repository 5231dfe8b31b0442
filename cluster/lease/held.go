package lease

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/clock"
)

// Held is a lease this node holds on one room. Check Valid before accepting
// each move; stop the room's actor when Lost is closed.
type Held struct {
	m     *Manager
	room  string
	term  uint64
	since time.Time // the clock reading just before the claiming request

	// op serialises the requests that write the entry (renewals, release),
	// so Release deletes the revision the last renewal wrote.
	op sync.Mutex

	mu       sync.Mutex
	revision uint64    // of our latest known write
	until    time.Time // Valid is false from this instant on
	err      error     // why the lease ended, or the latest renewal failure
	ended    bool
	lost     chan struct{}
	renewal  clock.Timer
	deadline clock.Timer
}

func newHeld(m *Manager, room string, revision uint64, start time.Time) *Held {
	return &Held{
		m: m, room: room, term: revision, since: start, revision: revision,
		until: m.opt.holdUntil(start),
		lost:  make(chan struct{}),
	}
}

// Room is the room code.
func (h *Held) Room() string { return h.room }

// Token is the fencing token of this tenure: the revision of the write that
// claimed the lease. Later owners of the room always have larger tokens.
func (h *Held) Token() uint64 { return h.term }

// Since is this node's clock reading just before it sent the request that
// won the lease: the tenure began at or after it.
func (h *Held) Since() time.Time { return h.since }

// Valid reports whether this node may act as the room's owner now. It is
// false while the lease is suspended (no renewal succeeded in time: the
// cluster did not answer) and turns true again if a later renewal
// succeeds; once the lease is lost it stays false.
func (h *Held) Valid() bool {
	now := h.m.opt.Clock.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.ended && now.Before(h.until)
}

// ValidUntil is the instant, on this node's clock, from which Valid is false
// unless a renewal succeeds first.
func (h *Held) ValidUntil() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.until
}

// Lost is closed when the lease ends: taken over, released, or suspended
// for longer than Options.Suspend.
func (h *Held) Lost() <-chan struct{} { return h.lost }

// Err says why the lease ended (ErrLostToOther, ErrExpired, ErrReleased), or
// while it is held, the latest renewal failure since the last success.
func (h *Held) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// schedule arms the first renewal and the deadline.
func (h *Held) schedule() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armLocked()
}

// armLocked schedules the next renewal and moves the deadline timer to h.until.
func (h *Held) armLocked() {
	if h.ended {
		return
	}
	if h.renewal != nil {
		h.renewal.Stop()
	}
	h.renewal = h.m.opt.Clock.AfterFunc(h.m.opt.Renew, h.renew)
	if h.deadline != nil {
		h.deadline.Stop()
	}
	h.deadline = h.m.opt.Clock.AfterFunc(h.until.Sub(h.m.opt.Clock.Now()), h.expire)
}

func (h *Held) renew() {
	h.op.Lock()
	defer h.op.Unlock()
	h.mu.Lock()
	if h.ended {
		h.mu.Unlock()
		return
	}
	start := h.m.opt.Clock.Now() // before the request: the write happens later
	if h.givenUpLocked(start) {
		h.mu.Unlock()
		return
	}
	revision := h.revision
	h.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), h.m.opt.Renew)
	rev, err := h.m.kv.Update(ctx, h.room, h.m.encode(h.term), revision)
	var ours uint64 // on a conflict: the revision of an entry that is our own write
	if isConflict(err) {
		ours = h.ownWrite(ctx)
	}
	cancel()

	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		h.revision = rev // even if the lease ended meanwhile: Release deletes this revision
	}
	if h.ended {
		return
	}
	switch {
	case err == nil:
		// Valid again if it had run out: nobody can have claimed the room
		// in between, or this compare-and-set on our last revision would
		// have failed (see the package doc).
		h.until = h.m.opt.holdUntil(start)
		h.err = nil
		h.armLocked()
	case ours != 0:
		// An earlier renewal was written but its answer never came: carry
		// on from that revision, at once. Validity is not extended: when
		// that write was sent is not known.
		h.revision = ours
		h.renewal = h.m.opt.Clock.AfterFunc(0, h.renew)
	case isConflict(err):
		h.endLocked(ErrLostToOther)
	case errors.Is(err, nats.ErrConnectionClosed):
		// This node closed its own connection (it is stopping, or was cut
		// off for good): no renewal can ever get through.
		h.endLocked(fmt.Errorf("%w: %v", ErrExpired, err))
	default:
		// The cluster did not answer (a replicated group electing its
		// leader, say): we may still hold the lease. Retry sooner; if
		// validity runs out meanwhile the lease is suspended, not lost.
		h.err = err
		h.renewal = h.m.opt.Clock.AfterFunc(h.m.opt.Renew/2, h.renew)
	}
}

// ownWrite reads the room's entry after a refused renewal: if it still
// names this node and this tenure's term, it is a write of ours whose
// answer was lost, and ownWrite returns its revision; else 0.
func (h *Held) ownWrite(ctx context.Context) uint64 {
	e, err := h.m.kv.Get(ctx, h.room)
	if err != nil {
		return 0
	}
	o, err := decodeOwner(e)
	if err != nil || o.Node != h.m.node || o.Term != h.term {
		return 0
	}
	return e.Revision()
}

// givenUpLocked ends the lease if it has been suspended for longer than
// Options.Suspend at now.
func (h *Held) givenUpLocked(now time.Time) bool {
	if now.Sub(h.until) < h.m.opt.Suspend {
		return false
	}
	h.endLocked(ErrExpired)
	return true
}

// expire runs at the validity's end (Valid has turned false by itself)
// and again at the end of Options.Suspend, which ends the lease.
func (h *Held) expire() {
	now := h.m.opt.Clock.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended || now.Before(h.until) || h.givenUpLocked(now) {
		return
	}
	h.deadline = h.m.opt.Clock.AfterFunc(h.until.Add(h.m.opt.Suspend).Sub(now), h.expire)
}

// endLocked ends the tenure once: Valid turns false and Lost closes.
func (h *Held) endLocked(why error) {
	if h.ended {
		return
	}
	h.ended = true
	h.err = why
	if h.renewal != nil {
		h.renewal.Stop()
	}
	if h.deadline != nil {
		h.deadline.Stop()
	}
	close(h.lost)
	h.m.dropHeld(h)
}

// Release gives the lease up: Valid is false from the call on, and the entry
// is deleted (if still ours) so another node can claim the room at once.
func (h *Held) Release(ctx context.Context) error {
	h.mu.Lock()
	wasLive := !h.ended || errors.Is(h.err, ErrExpired)
	h.endLocked(ErrReleased)
	h.mu.Unlock()
	if !wasLive {
		return nil
	}
	h.op.Lock() // let an in-flight renewal finish, so we delete its revision
	defer h.op.Unlock()
	h.mu.Lock()
	revision := h.revision
	h.mu.Unlock()
	err := h.m.kv.Delete(ctx, h.room, jetstream.LastRevision(revision))
	if isConflict(err) {
		return nil // someone else wrote the entry since: nothing of ours to free
	}
	return err
}
