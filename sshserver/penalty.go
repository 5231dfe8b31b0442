package sshserver

import (
	"sync"
	"time"
)

// Penalties keeps out, for a while, the sources whose handshakes stall or
// fail, as OpenSSH's PerSourcePenalties does: each such handshake adds to
// its address group's penalty; once what is owed passes PenaltyMin, new
// connections from there are closed at accept, unanswered, until it has run
// out. A source that stops paying off its penalty by waiting keeps adding
// to it, up to PenaltyMax. Authenticated connections never count, so
// players who log in are never penalized, however many they are.
const (
	// PenaltyStalled is added when a handshake misses one of its deadlines
	// (Config.VersionTimeout, KexTimeout, HandshakeTimeout).
	PenaltyStalled = 10 * time.Second
	// PenaltyNoAuth is added when a client that sent its version line
	// closes before it authenticates (a failed or abandoned handshake).
	PenaltyNoAuth = time.Second
	// PenaltyMin is what a source must owe before it is kept out: a lone
	// stalled handshake (a laptop that slept) or a few failed ones are
	// forgiven.
	PenaltyMin = 15 * time.Second
	// PenaltyMax bounds what a source may owe.
	PenaltyMax = 10 * time.Minute

	penaltyEntries = 65536 // address groups remembered; past it the soonest to expire are forgotten
)

// penalties is the record of penalties by address group.
type penalties struct {
	now func() time.Time

	mu sync.Mutex
	by map[string]*penalty
}

type penalty struct {
	until  time.Time // what is owed runs out then
	active bool      // it passed PenaltyMin: the source is kept out until then
}

func newPenalties(now func() time.Time) *penalties {
	if now == nil {
		now = time.Now
	}
	return &penalties{now: now, by: map[string]*penalty{}}
}

// add charges the address group key with d.
func (p *penalties) add(key string, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	e := p.by[key]
	if e == nil || !e.until.After(now) {
		if e == nil && len(p.by) >= penaltyEntries {
			p.sweep(now)
		}
		e = &penalty{until: now}
		p.by[key] = e
	}
	e.until = e.until.Add(d)
	if e.until.Sub(now) > PenaltyMax {
		e.until = now.Add(PenaltyMax)
	}
	if e.until.Sub(now) > PenaltyMin {
		e.active = true
	}
}

// keptOut is how long the address group key is still kept out (0: let it
// in).
func (p *penalties) keptOut(key string) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.by[key]
	if e == nil {
		return 0
	}
	left := e.until.Sub(p.now())
	if left <= 0 {
		delete(p.by, key)
		return 0
	}
	if !e.active {
		return 0
	}
	return left
}

// sweep forgets every penalty that ran out and, if the table is still
// nearly full (a flood from very many sources), enough others to leave a
// tenth of it free, so that a full table costs one pass per many entries.
func (p *penalties) sweep(now time.Time) {
	for k, e := range p.by {
		if !e.until.After(now) {
			delete(p.by, k)
		}
	}
	for k := range p.by {
		if len(p.by) < penaltyEntries*9/10 {
			break
		}
		delete(p.by, k)
	}
}
