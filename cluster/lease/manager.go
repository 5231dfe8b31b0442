package lease

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/clock"
)

// Bucket is the name of the KV bucket that holds the leases, one key per room code.
const Bucket = "room-leases"

var (
	// ErrHeld says another node holds the room's lease, or won the race to claim it.
	ErrHeld = errors.New("lease: room held by another node")
	// ErrAlreadyHeld says this manager already holds the room.
	ErrAlreadyHeld = errors.New("lease: room already held by this node")
	// ErrNoOwner says no lease is recorded for the room.
	ErrNoOwner = errors.New("lease: room has no owner")
	// ErrLostToOther says a renewal found the lease rewritten or deleted by someone else.
	ErrLostToOther = errors.New("lease: lease taken over or deleted")
	// ErrExpired says no renewal succeeded for Options.Suspend after the
	// lease ran out, so it may have been taken over.
	ErrExpired = errors.New("lease: not renewed in time")
	// ErrReleased says the holder released the lease.
	ErrReleased = errors.New("lease: released")
)

// KV is the part of a JetStream key-value bucket the leases use;
// jetstream.KeyValue satisfies it.
type KV interface {
	Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error)
	Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error)
	Update(ctx context.Context, key string, value []byte, revision uint64) (uint64, error)
	Delete(ctx context.Context, key string, opts ...jetstream.KVDeleteOpt) error
	WatchAll(ctx context.Context, opts ...jetstream.WatchOpt) (jetstream.KeyWatcher, error)
}

// OpenBucket creates the lease bucket, or opens it if it exists. It keeps
// only the latest entry per room: the protocol needs no history.
func OpenBucket(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.KeyValue, error) {
	return js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      Bucket,
		Description: "room ownership leases",
		History:     1,
		Replicas:    replicas,
		Storage:     jetstream.FileStorage,
	})
}

// Options tune the leases. All nodes of a cluster must use the same TTL.
type Options struct {
	// TTL is how long a lease lives without renewal. A claimant waits this
	// long, on its own clock, after first seeing an entry before taking it over.
	TTL time.Duration
	// Renew is the time between renewals; default TTL/3.
	Renew time.Duration
	// Margin is cut from the holder's validity to absorb clock drift;
	// default TTL/10, which tolerates drift rates up to about 5%.
	Margin time.Duration
	// Suspend is how long a holder whose validity ran out (the cluster did
	// not answer its renewals) keeps trying to renew before it gives the
	// room up; Valid is false meanwhile. Default 30 s: a NATS cluster
	// that lost a node elects new leaders within about 10 s.
	Suspend time.Duration
	// Clock is the node's own clock; default clock.System. The protocol only
	// ever subtracts two readings of the same clock, so it needs a
	// monotonic clock, not a synchronised one.
	Clock clock.Clock
}

func (o Options) withDefaults() (Options, error) {
	if o.Renew == 0 {
		o.Renew = o.TTL / 3
	}
	if o.Margin == 0 {
		o.Margin = o.TTL / 10
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Suspend == 0 {
		o.Suspend = 30 * time.Second
	}
	if o.TTL <= 0 || o.Renew <= 0 || o.Margin <= 0 || o.Renew >= o.TTL-o.Margin {
		return o, fmt.Errorf("lease: need 0 < Renew < TTL-Margin and Margin > 0, got TTL %v Renew %v Margin %v",
			o.TTL, o.Renew, o.Margin)
	}
	return o, nil
}

// holdUntil is the last instant, on the holder's clock, at which a holder
// whose latest successful renewal (or claim) was sent at start may still act.
func (o Options) holdUntil(start time.Time) time.Time {
	return start.Add(o.TTL - o.Margin)
}

// takeoverAt is the first instant, on a claimant's clock, at which it may
// overwrite an entry revision it first saw at seen.
func (o Options) takeoverAt(seen time.Time) time.Time {
	return seen.Add(o.TTL)
}

// Owner is what the bucket says about a room.
type Owner struct {
	Node     string
	Term     uint64    // the fencing token of that owner's tenure
	Renewed  time.Time // the owner's clock reading at its last renewal: for display only
	Revision uint64    // the entry's revision, which changes at every renewal
}

// record is the value stored under a room's key.
type record struct {
	Node string `json:"node"`
	// Term is the revision of the write that claimed the lease; zero in that
	// claiming write itself, whose revision is not known before it is made.
	Term    uint64    `json:"term,omitempty"`
	Renewed time.Time `json:"renewed"`
}

func decodeOwner(e jetstream.KeyValueEntry) (Owner, error) {
	var r record
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return Owner{}, fmt.Errorf("lease: room %s: bad entry: %w", e.Key(), err)
	}
	term := r.Term
	if term == 0 {
		term = e.Revision()
	}
	return Owner{Node: r.Node, Term: term, Renewed: r.Renewed, Revision: e.Revision()}, nil
}

// Manager claims and renews room leases for one node.
type Manager struct {
	kv   KV
	node string
	opt  Options

	mu   sync.Mutex
	held map[string]*Held
	// seen remembers, per room, the revision last observed and the local
	// time it was first observed: the start of a claimant's wait.
	seen map[string]sighting
}

type sighting struct {
	// revision and written (the server's timestamp of the write) name the
	// write; written tells it apart from a write of the same revision
	// number in a bucket deleted and made again.
	revision uint64
	written  time.Time
	at       time.Time
}

// NewManager returns the lease manager of node nodeID over the lease bucket kv.
func NewManager(kv KV, nodeID string, opt Options) (*Manager, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if nodeID == "" {
		return nil, errors.New("lease: empty node id")
	}
	return &Manager{kv: kv, node: nodeID, opt: opt, held: map[string]*Held{}, seen: map[string]sighting{}}, nil
}

// Node is this manager's node id.
func (m *Manager) Node() string { return m.node }

// Owner reports who the bucket names as the room's owner. It says nothing
// about whether that lease is still live: only its holder can know that.
func (m *Manager) Owner(ctx context.Context, room string) (Owner, error) {
	e, err := m.kv.Get(ctx, room)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Owner{}, ErrNoOwner
	}
	if err != nil {
		return Owner{}, err
	}
	m.sight(e, m.opt.Clock.Now()) // a look is a sighting: a later Claim counts its TTL from it
	return decodeOwner(e)
}

// Claim takes the room's lease. A room without a lease is taken at once; a
// room whose entry this manager has seen unchanged for a TTL is taken with a
// compare-and-set on that revision; otherwise Claim waits, up to a TTL, for
// the entry to stay unchanged that long. It returns ErrHeld if the entry
// changed meanwhile (its holder renewed) or another claimant won.
func (m *Manager) Claim(ctx context.Context, room string) (*Held, error) {
	m.mu.Lock()
	_, dup := m.held[room]
	m.mu.Unlock()
	if dup {
		return nil, ErrAlreadyHeld
	}
	e, err := m.kv.Get(ctx, room)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return m.take(ctx, room, 0)
	}
	if err != nil {
		return nil, err
	}
	ready := m.opt.takeoverAt(m.sight(e, m.opt.Clock.Now()))
	if err := m.sleepUntil(ctx, ready); err != nil {
		return nil, err
	}
	return m.take(ctx, room, e.Revision())
}

// Seize takes the room's lease over the entry at revision (0: no entry)
// at once, without Claim's wait: for a room whose holder is known dead
// (its process's connections closed), whose lease would otherwise keep
// it down for a TTL. It returns ErrHeld if the entry is not at revision
// (its holder renewed: it lives) or another node won. If the holder did
// live, both may count as valid until its next renewal finds the entry
// rewritten (ErrLostToOther, at most Renew later) or its validity runs
// out: the rooms' logs keep that safe (see the package doc).
func (m *Manager) Seize(ctx context.Context, room string, revision uint64) (*Held, error) {
	m.mu.Lock()
	_, dup := m.held[room]
	m.mu.Unlock()
	if dup {
		return nil, ErrAlreadyHeld
	}
	return m.take(ctx, room, revision)
}

// take writes a new lease over revision (0: the key must be absent or deleted).
func (m *Manager) take(ctx context.Context, room string, revision uint64) (*Held, error) {
	start := m.opt.Clock.Now() // before the request: the write happens later
	value := m.encode(0)
	var rev uint64
	var err error
	if revision == 0 {
		rev, err = m.kv.Create(ctx, room, value)
	} else {
		rev, err = m.kv.Update(ctx, room, value, revision)
	}
	if isConflict(err) {
		return nil, fmt.Errorf("%w: %s", ErrHeld, room)
	}
	if err != nil {
		return nil, err
	}
	h := newHeld(m, room, rev, start)
	m.mu.Lock()
	m.held[room] = h
	delete(m.seen, room)
	m.mu.Unlock()
	h.schedule()
	return h, nil
}

// sight records that the entry was observed at now and returns the earliest
// local time this manager has seen that same write.
func (m *Manager) sight(e jetstream.KeyValueEntry, now time.Time) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.seen[e.Key()]; ok && s.revision == e.Revision() && s.written.Equal(e.Created()) {
		return s.at
	}
	m.seen[e.Key()] = sighting{revision: e.Revision(), written: e.Created(), at: now}
	return now
}

func (m *Manager) forgetSighting(room string) {
	m.mu.Lock()
	delete(m.seen, room)
	m.mu.Unlock()
}

func (m *Manager) dropHeld(h *Held) {
	m.mu.Lock()
	if m.held[h.room] == h {
		delete(m.held, h.room)
	}
	m.mu.Unlock()
}

func (m *Manager) sleepUntil(ctx context.Context, t time.Time) error {
	d := t.Sub(m.opt.Clock.Now())
	if d <= 0 {
		return nil
	}
	done := make(chan struct{})
	timer := m.opt.Clock.AfterFunc(d, func() { close(done) })
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (m *Manager) encode(term uint64) []byte {
	b, err := json.Marshal(record{Node: m.node, Term: term, Renewed: m.opt.Clock.Now().UTC()})
	if err != nil {
		panic(err) // a struct of a string, an integer and a time always encodes
	}
	return b
}

// isConflict reports a failed compare-and-set, create-if-absent or
// conditional delete: the entry is not at the revision we expected.
func isConflict(err error) bool {
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return true
	}
	var api *jetstream.APIError
	return errors.As(err, &api) && (api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
