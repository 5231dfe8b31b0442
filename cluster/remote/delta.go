package remote

import (
	"reflect"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// An Update carries the seat's recent log and the table's recent public
// events: nine tenths of its bytes, nearly all of them sent before. On the
// wire the owner sends only what the session has not got: each list as
// how many of the previous one's last events to keep, then the new ones.
// Deliveries on a session's subject are numbered; a session that misses
// one (NATS may drop messages for a slow reader) asks for the whole
// Update again, and ignores deltas until it comes.

// overlap is the largest keep such that cur[:keep] is the last keep
// events of prev: then cur is prev's last keep events and cur[keep:]. It
// checks what it substitutes, so it is right whatever the events are.
func overlap(prev, cur []*game.Event) int {
	for keep := min(len(prev), len(cur)); keep > 0; keep-- {
		if reflect.DeepEqual(cur[:keep], prev[len(prev)-keep:]) {
			return keep
		}
	}
	return 0
}

// sent is what the owner last sent a session, to send the next as a delta.
type sent struct {
	n      uint64 // deliveries sent
	full   bool   // the session asked for a whole Update
	log    []*game.Event
	public []*game.Event
	last   table.Update // to send whole again
}

// delta makes u's wire form for the session: u with only its new events,
// and how many of the previous ones to keep.
func (s *sent) delta(u table.Update) (table.Update, delivery) {
	s.n++
	d := delivery{N: s.n}
	w := u
	if s.full || s.n == 1 {
		s.full = false
		d.Full = true
	} else {
		d.LogKeep, d.PublicKeep = overlap(s.log, u.Log), overlap(s.public, u.Public)
		w.Log, w.Public = u.Log[d.LogKeep:], u.Public[d.PublicKeep:]
	}
	s.log, s.public, s.last = u.Log, u.Public, u
	return w, d
}

// received is what a session last got, to apply the next delta to.
type received struct {
	n      uint64
	synced bool // the last delivery applied; false: waiting for a whole one
	last   table.Update
}

// apply rebuilds the Update d carries (u: its wire form), or reports that
// it cannot (a delivery went missing) and a whole one is needed.
func (r *received) apply(d delivery, u table.Update) (table.Update, bool) {
	gap := d.N != r.n+1
	r.n = d.N
	if d.Full {
		r.synced = true
		r.last = u
		return u, true
	}
	if gap || !r.synced || d.LogKeep > len(r.last.Log) || d.PublicKeep > len(r.last.Public) {
		r.synced = false
		return table.Update{}, false
	}
	u.Log = slices.Concat(r.last.Log[len(r.last.Log)-d.LogKeep:], u.Log)
	u.Public = slices.Concat(r.last.Public[len(r.last.Public)-d.PublicKeep:], u.Public)
	r.last = u
	return u, true
}
