package server

import (
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
)

// New identities: a key the server has no profile for. Making one costs
// nothing (ssh-keygen), so a script can bring a fresh key to every
// connection: 500 of them made 500 stored profiles, 130 a second from one
// address. Profiles are now stored only when a key first does something
// worth keeping (profiles.Keep), and each address may bring at most
// DefaultNewKeysPerHour keys the server has never seen in an hour; past
// that a session is refused, in the player's language, until the oldest
// of them is an hour old. Keys it already knows are never counted.
const (
	DefaultNewKeysPerHour = 20
	newKeysWindow         = time.Hour
	// newKeysMaxAddrs bounds the memory (under 1 KB an address); past it, addresses whose keys are all older than the window
	// go, and if none has, an arbitrary one does.
	newKeysMaxAddrs = 50000
)

// newKeys counts the new keys each address (sshserver.AddressGroup) has
// brought within the last newKeysWindow. A key is counted once per address
// and window however often it comes back.
type newKeys struct {
	limit int // per address and window; < 0: no limit
	clock clock.Clock

	mu   sync.Mutex
	by   map[string]*addrKeys
	seed maphash.Seed
}

// addrKeys is one address's new keys, oldest first.
type addrKeys struct {
	keys []newKey
	told bool // a refusal was logged since the address was last under the limit
}

type newKey struct {
	key uint64 // a hash of the fingerprint: 8 bytes instead of 50
	at  time.Time
}

func newNewKeys(limit int, c clock.Clock) *newKeys {
	if limit == 0 {
		limit = DefaultNewKeysPerHour
	}
	if c == nil {
		c = clock.System{}
	}
	return &newKeys{limit: limit, clock: c, by: map[string]*addrKeys{}, seed: maphash.MakeSeed()}
}

// admit reports whether addr may bring id, a key with no stored profile,
// and counts it if so. log is true for the first refusal of an address
// since it was last admitted: a refused script is logged once, not once a
// connection.
func (n *newKeys) admit(addr, id string) (ok, log bool) {
	if n.limit < 0 {
		return true, false
	}
	h := maphash.String(n.seed, id)
	now := n.clock.Now()
	n.mu.Lock()
	defer n.mu.Unlock()
	a := n.by[addr]
	if a == nil {
		if len(n.by) >= newKeysMaxAddrs {
			n.forget(now)
		}
		a = &addrKeys{}
		n.by[addr] = a
	}
	a.keys = fresh(a.keys, now)
	if slices.ContainsFunc(a.keys, func(k newKey) bool { return k.key == h }) {
		return true, false
	}
	if len(a.keys) >= n.limit {
		log, a.told = !a.told, true
		return false, log
	}
	a.keys, a.told = append(a.keys, newKey{key: h, at: now}), false
	return true, false
}

// fresh is keys without those older than the window.
func fresh(keys []newKey, now time.Time) []newKey {
	i := 0
	for i < len(keys) && now.Sub(keys[i].at) >= newKeysWindow {
		i++
	}
	return keys[i:]
}

// forget drops the addresses whose keys are all past the window, or one
// address if none is (n.mu held).
func (n *newKeys) forget(now time.Time) {
	for a, k := range n.by {
		if len(fresh(k.keys, now)) == 0 {
			delete(n.by, a)
		}
	}
	for a := range n.by {
		if len(n.by) < newKeysMaxAddrs {
			return
		}
		delete(n.by, a)
	}
}
