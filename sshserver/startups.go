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
// in all, a new one simply joins them; from Start on, with a chance of
// Rate percent that grows linearly to 100% at Full, it joins them in the
// place of another, which is closed.
//
// The one that gives its place up is the oldest of the address group with
// the most connections waiting (one that has not sent its version line
// first: a real client speaks within a round trip), never the newcomer:
// OpenSSH refuses the newcomer, so connections that send a version line
// and then stall, redialled from a few addresses, kept every new player
// out. Here a flood gives up its own places, and a player from an address
// of its own, the least crowded, always gets in.
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
	key     string
	conn    *limitedConn
	el      *list.Element // nil once it left the gate
	evicted bool          // it gave its place up to a newcomer (under the gate's lock)
}

func (st *startup) silent() bool { return !st.conn.spoke.Load() }

func newGate(budget Startups, perIP int) *gate {
	return &gate{budget: budget, perIP: perIP, rand: rand.Float64, byIP: map[string]int{}}
}

// enter lets a new connection from the address group key wait to
// authenticate. When its address's share is full, it takes the place of
// that address's oldest connection; when the budget in all says no (see
// Startups), the place of the oldest connection of the most crowded
// group. The connection that gave its place up is returned, for the caller
// to close outside the lock (nil: none).
func (g *gate) enter(key string, conn *limitedConn) (st, evicted *startup) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch n := g.waiting.Len(); {
	case g.byIP[key] >= g.perIP:
		evicted = g.oldestOf(key)
	case n >= g.budget.Start && g.rand() < g.budget.dropChance(n):
		evicted = g.oldestOfCrowded(key)
	}
	if evicted != nil {
		g.remove(evicted)
		evicted.evicted = true
	}
	st = &startup{key: key, conn: conn}
	st.el = g.waiting.PushBack(st)
	g.byIP[key]++
	return st, evicted
}

// leave takes a connection out of the gate (it authenticated or closed);
// it may be called more than once. It reports whether the connection had
// given its place up to a newcomer.
func (g *gate) leave(st *startup) (evicted bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if st.el != nil {
		g.remove(st)
	}
	return st.evicted
}

func (g *gate) remove(st *startup) {
	g.waiting.Remove(st.el)
	st.el = nil
	if g.byIP[st.key]--; g.byIP[st.key] <= 0 {
		delete(g.byIP, st.key)
	}
}

// oldestOf is the longest-waiting connection of the address group key that
// has not spoken, or else its longest-waiting one; nil if it has none.
func (g *gate) oldestOf(key string) *startup {
	var first *startup
	for e := g.waiting.Front(); e != nil; e = e.Next() {
		st := e.Value.(*startup)
		if st.key != key {
			continue
		}
		if st.silent() {
			return st
		}
		if first == nil {
			first = st
		}
	}
	return first
}

// oldestOfCrowded is oldestOf the group with the most connections
// waiting, counting the newcomer in its group key: that group's own when
// it is as crowded as any, else among equally crowded groups the one
// whose oldest connection has waited longest.
func (g *gate) oldestOfCrowded(key string) *startup {
	own := g.byIP[key] + 1
	most, crowded := 0, ""
	for e := g.waiting.Front(); e != nil; e = e.Next() {
		st := e.Value.(*startup)
		if n := g.byIP[st.key]; n > most {
			most, crowded = n, st.key
		}
	}
	if own >= most && own > 1 {
		crowded = key
	}
	if crowded == "" {
		return nil
	}
	return g.oldestOf(crowded)
}

// counts is the connections waiting to authenticate in all and from key.
func (g *gate) counts(key string) (total, ip int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting.Len(), g.byIP[key]
}
