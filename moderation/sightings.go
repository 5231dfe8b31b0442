package moderation

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
)

// What the server saw of each player (persistence.Sightings): the names
// they went by, the addresses they came from, their key. A ban reads a
// player's last address from it when they are offline; `admin history`
// shows it. Logins only queue what they saw (Saw): one goroutine writes
// the queue in batches, so a login never waits for the store.

// Bounds of the sightings kept: records not seen for SightingsKept go,
// and past MaxSightings records the ones seen longest ago.
const (
	SightingsKept = 90 * 24 * time.Hour
	MaxSightings  = 100_000
)

// pruneEvery is how often old sightings are removed; pruneGap the least
// time between two prunes that the number of new records asks for.
const (
	pruneEvery = time.Hour
	pruneGap   = time.Minute
)

// batchEvery is how long the writer gathers sightings before a write.
const batchEvery = time.Second

// rewriteAfter is how old a written sighting of the same name and address
// may get before another login writes it again (to move its Last on).
const rewriteAfter = time.Hour

// maxRemembered bounds the memory of what was written (rewriteAfter).
const maxRemembered = 50_000

// seenMark is what was last written of an identity.
type seenMark struct {
	name, addr string
	at         time.Time
}

// sightingKeeper queues and writes sightings.
type sightingKeeper struct {
	store persistence.Sightings // nil: nothing is kept
	// bounded: the store bounds itself (JetStream's stream keeps the
	// newest messages), so only old records need pruning.
	bounded bool

	mu      sync.Mutex
	pending map[string]persistence.Sighting
	// writing is the batch on its way to the store: out of pending, not
	// yet readable there, and read from here meanwhile (an admin's
	// listing named a key by its fingerprint during a slow write).
	writing  map[string]persistence.Sighting
	written  map[string]seenMark
	newSince int // records written since the last prune that were not written this run before
	pruned   time.Time
	wake     chan struct{} // something was queued (one slot)
	flush    chan struct{} // Flush asks for a write now
	flushing int           // Flush calls waiting: no gathering meanwhile
	idle     chan struct{} // closed and remade by the writer when the queue is empty: Flush waits on it
}

// SelfBounded is a sightings store that bounds its own size.
type SelfBounded interface{ SightingsBounded() bool }

func newSightingKeeper(store persistence.Moderation, explicit persistence.Sightings) *sightingKeeper {
	k := &sightingKeeper{store: explicit, pending: map[string]persistence.Sighting{}, written: map[string]seenMark{},
		wake: make(chan struct{}, 1), flush: make(chan struct{}), idle: make(chan struct{})}
	if k.store == nil {
		k.store, _ = store.(persistence.Sightings)
	}
	if b, ok := k.store.(SelfBounded); ok {
		k.bounded = b.SightingsBounded()
	}
	return k
}

// Saw queues what a login showed of a player: their identity, name and
// address, and key (a public key in authorized_keys form, "" for a
// guest). It never blocks on the store.
func (s *Service) Saw(p Person, key string) {
	k := s.seen
	if k.store == nil || p.ID == "" {
		return
	}
	now := s.clock.Now().UTC()
	name := sanitize.Line(p.Name, sanitize.MaxNameRunes+8)
	k.mu.Lock()
	defer k.mu.Unlock()
	if m, ok := k.written[p.ID]; ok && m.name == name && m.addr == p.Addr && now.Sub(m.at) < rewriteAfter {
		return
	}
	sg := persistence.Sighting{ID: p.ID, Guest: p.Guest, Key: key, Last: now}
	if name != "" {
		if f := sanitize.Fold(name); f != "" {
			sg.Names = []persistence.SeenName{{Name: name, Fold: f}}
		}
	}
	if p.Addr != "" {
		sg.Addrs = []persistence.SeenAddr{{Addr: p.Addr}}
	}
	if old, ok := k.pending[p.ID]; ok {
		persistence.MergeSighting(&old, sg) // two logins in one batch: both names and addresses
		sg = old
	}
	k.pending[p.ID] = sg
	k.signal()
}

// writeSightings writes the queue until the service closes: what came in
// within batchEvery of the first sighting, in one write (a burst of
// logins is a few writes, not one each: each write copies the pages it
// touches and syncs the file).
func (s *Service) writeSightings() {
	k := s.seen
	for {
		select {
		case <-k.wake:
		case <-s.life.Done():
			return
		}
		k.mu.Lock()
		flushing := k.flushing > 0
		k.mu.Unlock()
		if !flushing {
			gathered := make(chan struct{})
			t := s.clock.AfterFunc(batchEvery, func() { close(gathered) })
			select {
			case <-gathered:
			case <-k.flush:
				t.Stop()
			case <-s.life.Done():
				t.Stop()
				return
			}
		}
		k.mu.Lock()
		batch := make([]persistence.Sighting, 0, len(k.pending))
		for _, sg := range k.pending {
			batch = append(batch, sg)
		}
		k.writing, k.pending = k.pending, map[string]persistence.Sighting{}
		k.mu.Unlock()
		if len(batch) > 0 {
			s.writeBatch(batch)
		}
		k.mu.Lock()
		k.writing = nil // in the store now (or lost, and logged)
		if len(k.pending) == 0 {
			close(k.idle)
			k.idle = make(chan struct{})
		} else {
			k.signal() // came in while writing
		}
		k.mu.Unlock()
	}
}

func (s *Service) writeBatch(batch []persistence.Sighting) {
	k := s.seen
	if err := k.store.NoteSightings(batch); err != nil {
		s.log.Warn("moderation: sightings could not be kept", "n", len(batch), "err", err)
		return
	}
	k.mu.Lock()
	if len(k.written) >= maxRemembered {
		clear(k.written) // rewrites a few records sooner, no more
	}
	for _, sg := range batch {
		m := seenMark{at: sg.Last}
		if len(sg.Names) > 0 {
			m.name = sg.Names[len(sg.Names)-1].Name
		}
		if len(sg.Addrs) > 0 {
			m.addr = sg.Addrs[len(sg.Addrs)-1].Addr
		}
		if _, ok := k.written[sg.ID]; !ok {
			k.newSince++
		}
		k.written[sg.ID] = m
	}
	crowded := !k.bounded && k.newSince > MaxSightings/10 && s.clock.Now().Sub(k.pruned) >= pruneGap
	k.mu.Unlock()
	if crowded {
		s.pruneSightings()
	}
}

// Flush waits until every sighting queued so far is written (tests; a
// node stopping), without waiting out batchEvery.
func (s *Service) Flush() {
	k := s.seen
	if k.store == nil {
		return
	}
	k.mu.Lock()
	k.flushing++
	idle := k.idle
	k.signal()
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.flushing--
		k.mu.Unlock()
	}()
	select {
	case k.flush <- struct{}{}: // the writer is gathering: write now
	default:
	}
	select {
	case <-idle:
	case <-s.life.Done():
	}
}

// signal wakes the writer (k.mu held).
func (k *sightingKeeper) signal() {
	select {
	case k.wake <- struct{}{}:
	default:
	}
}

// pruneSightings removes old records, and the oldest past MaxSightings.
func (s *Service) pruneSightings() {
	k := s.seen
	now := s.clock.Now()
	k.mu.Lock()
	k.pruned, k.newSince = now, 0
	k.mu.Unlock()
	n, err := k.store.PruneSightings(now.Add(-SightingsKept), MaxSightings)
	if err != nil {
		s.log.Warn("moderation: old sightings could not be removed", "err", err)
		return
	}
	if n > 0 {
		s.log.Info("moderation: old sightings removed", "n", n)
	}
}

// prunePeriodically prunes every pruneEvery until the service closes.
func (s *Service) prunePeriodically() {
	if s.seen.store == nil {
		return
	}
	var mu sync.Mutex
	var t clock.Timer
	var tick func()
	tick = func() {
		s.pruneSightings()
		mu.Lock()
		defer mu.Unlock()
		if s.life.Err() == nil {
			t = s.clock.AfterFunc(pruneEvery, tick)
		}
	}
	mu.Lock()
	t = s.clock.AfterFunc(pruneEvery, tick)
	mu.Unlock()
	context.AfterFunc(s.life, func() {
		mu.Lock()
		defer mu.Unlock()
		t.Stop()
	})
}

// Sighting is what the server saw of an identity: queued, being written
// or kept. The queue is read before the store: a batch leaves it for the
// store, never the other way.
func (s *Service) Sighting(id string) (persistence.Sighting, bool) {
	k := s.seen
	if k.store == nil {
		return persistence.Sighting{}, false
	}
	k.mu.Lock()
	writing, inWrite := k.writing[id]
	queued, inQueue := k.pending[id]
	k.mu.Unlock()
	rec, err := k.store.Sighting(id)
	if err != nil && !errors.Is(err, persistence.ErrNotFound) {
		s.log.Warn("moderation: a sighting could not be read", "id", id, "err", err)
	}
	found := err == nil
	if inWrite {
		persistence.MergeSighting(&rec, writing)
	}
	if inQueue {
		persistence.MergeSighting(&rec, queued)
	}
	return rec, found || inWrite || inQueue
}

// SeenAs is the identities seen under a name that reads like name, the
// latest last.
func (s *Service) SeenAs(name string) []string {
	k := s.seen
	f := sanitize.Fold(name)
	if k.store == nil || f == "" {
		return nil
	}
	var unkept []string // queued or being written: read before the store (see Sighting)
	k.mu.Lock()
	for _, m := range []map[string]persistence.Sighting{k.writing, k.pending} {
		for _, sg := range m {
			for _, n := range sg.Names {
				if n.Fold == f {
					unkept = append(unkept, sg.ID)
				}
			}
		}
	}
	k.mu.Unlock()
	ids, err := k.store.SightingsNamed(f)
	if err != nil {
		s.log.Warn("moderation: the names seen could not be read", "err", err)
	}
	for _, id := range unkept {
		ids = persistence.IndexName(ids, id)
	}
	return ids
}

// lastAddr is the address an identity came from last ("" if unknown).
func (s *Service) lastAddr(id string) string {
	rec, _ := s.Sighting(id)
	return rec.LastAddr()
}

// seenBefore reports whether the identity was seen before t: by its
// sightings, else as Options.KnownSince says (a profile made before
// sightings were kept).
func (s *Service) seenBefore(id string, t time.Time) bool {
	if rec, ok := s.Sighting(id); ok && rec.First.Before(t) {
		return true
	}
	if s.knownSince != nil {
		if since, ok := s.knownSince(id); ok && since.Before(t) {
			return true
		}
	}
	return false
}
