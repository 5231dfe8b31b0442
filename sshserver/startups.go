package sshserver

import (
	"container/list"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
)

// Startups is the budget of connections that have not authenticated yet,
// as OpenSSH's MaxStartups "start:rate:full": below Start such connections
// in all, a new one is let in; from Start on, it is refused with a chance
// of Rate percent that grows linearly to 100% at Full.
//
// A refusal here takes the place of a silent connection (one whose client
// has not sent its version line: the oldest of the address with the most
// connections waiting) when there is one, rather than turning the
// newcomer away: a real client speaks within a round trip
// of connecting, so silent connections are the cheapest way to fill the
// budget, and they never keep a client that talks from getting in. Only
// connections that talk (and stall in the handshake) make newcomers wait.
type Startups struct{ Start, Rate, Full int }

// ParseStartups reads "start:rate:full" (e.g. "10:30:100").
func ParseStartups(s string) (Startups, error) {
	parts := strings.Split(s, ":")
	bad := fmt.Errorf("%q is not start:rate:full, e.g. 10:30:100", s)
	if len(parts) != 3 {
		return Startups{}, bad
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 {
			return Startups{}, bad
		}
		n[i] = v
	}
	st := Startups{Start: n[0], Rate: n[1], Full: n[2]}
	if st.Start < 1 || st.Full < st.Start || st.Rate > 100 {
		return Startups{}, fmt.Errorf("%q: want 1 ≤ start ≤ full and rate ≤ 100", s)
	}
	return st, nil
}

func (st Startups) String() string { return fmt.Sprintf("%d:%d:%d", st.Start, st.Rate, st.Full) }

// dropChance is the chance a newcomer is refused when n connections are
// waiting to authenticate.
func (st Startups) dropChance(n int) float64 {
	switch {
	case n < st.Start:
		return 0
	case n >= st.Full:
		return 1
	}
	rate := float64(st.Rate) / 100
	return rate + (1-rate)*float64(n-st.Start)/float64(st.Full-st.Start)
}

// gate counts the connections that have not authenticated yet, per address
// group and in all (see Startups and Config.MaxStartupsPerIP).
type gate struct {
	budget Startups
	perIP  int
	rand   func() float64 // in [0, 1); tests make it predictable

	mu      sync.Mutex
	waiting list.List // *startup, oldest first
	byIP    map[string]int
}

// startup is one connection on its way to authenticating.
type startup struct {
	key    string
	conn   *limitedConn
	el     *list.Element // nil once it left the gate
	silent func() bool   // its client has not said a word yet
}

func newGate(budget Startups, perIP int) *gate {
	return &gate{budget: budget, perIP: perIP, rand: rand.Float64, byIP: map[string]int{}}
}

// enter lets a new connection from the address group key wait to
// authenticate, or says no (false). A place it takes from a silent
// connection is given back by closing that connection.
func (g *gate) enter(key string, conn *limitedConn) (*startup, bool) {
	var evicted []*startup
	defer func() {
		for _, e := range evicted {
			e.conn.Close() // outside the lock: its goroutine calls leave
		}
	}()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byIP[key] >= g.perIP {
		// The newcomer takes a place of its own address's: the number
		// waiting in all does not change.
		v := g.oldestSilent(key)
		if v == nil {
			return nil, false
		}
		g.remove(v)
		evicted = append(evicted, v)
	} else if n := g.waiting.Len(); n >= g.budget.Start && g.rand() < g.budget.dropChance(n) {
		v := g.crowdedSilent()
		if v == nil {
			return nil, false
		}
		g.remove(v)
		evicted = append(evicted, v)
	}
	st := &startup{key: key, conn: conn, silent: func() bool { return !conn.spoke.Load() }}
	st.el = g.waiting.PushBack(st)
	g.byIP[key]++
	return st, true
}

// leave takes a connection out of the gate (it authenticated or closed);
// it may be called more than once.
func (g *gate) leave(st *startup) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if st.el != nil {
		g.remove(st)
	}
}

func (g *gate) remove(st *startup) {
	g.waiting.Remove(st.el)
	st.el = nil
	if g.byIP[st.key]--; g.byIP[st.key] <= 0 {
		delete(g.byIP, st.key)
	}
}

// oldestSilent is the longest-waiting connection that has not spoken, from
// the address group key ("": any), or nil.
func (g *gate) oldestSilent(key string) *startup {
	for e := g.waiting.Front(); e != nil; e = e.Next() {
		st := e.Value.(*startup)
		if (key == "" || st.key == key) && st.silent() {
			return st
		}
	}
	return nil
}

// crowdedSilent is the longest-waiting silent connection from the address
// group that has the most connections waiting, or nil: a flood from a
// few addresses gives up its own places before a lone player's.
func (g *gate) crowdedSilent() *startup {
	var pick *startup
	for e := g.waiting.Front(); e != nil; e = e.Next() {
		st := e.Value.(*startup)
		if st.silent() && (pick == nil || g.byIP[st.key] > g.byIP[pick.key]) {
			pick = st
		}
	}
	return pick
}

// counts is the connections waiting to authenticate in all and from key.
func (g *gate) counts(key string) (total, ip int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting.Len(), g.byIP[key]
}
