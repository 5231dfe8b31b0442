package server

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/heapx"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/sshserver"
)

// nameBook keeps display names apart: a name (compared by sanitize.Fold,
// so look-alikes count as the same) belongs to the player who used it, as
// long as they are online or were seen within nameHeld (a guest's only
// while their code can still reclaim them: guestNameHeld). Another player
// who logs in under it gets a numbered variant and is told; a rename to it
// is refused. Chat lines carry names, so this is what keeps one player from
// speaking as another.
//
// It lives in memory, seeded at start from the stored profiles' names, and
// holds at most nameBookMax names: past that the offline name whose hold
// ends first is forgotten (expiring, an expiry-ordered heap of the
// offline names), and names whose hold has ended are forgotten as new
// ones come. Each holder costs about 250 bytes.
type nameBook struct {
	reserved *reservedNames       // names no player may take (nil: none)
	isAdmin  func(id string) bool // an admin may take them (nil: nobody)
	// holdsCode: the name holds a reclaim code the server knows (nil: none)
	holdsCode func(name string) bool

	mu       sync.Mutex
	by       map[string]*nameHolder  // fold → holder
	used     map[string]string       // player ID → fold of the name its sessions go by
	expiring heapx.Heap[*nameHolder] // offline holders, the hold that ends first on top
	next     map[string]int          // fold of a name → the number its next variant tries first
}

type nameHolder struct {
	fold   string
	id     string
	name   string
	seen   time.Time
	online int // sessions open now
	at     int // index in expiring; -1 while online
}

// ends is when the holder's hold on its name ends, if offline.
func (h *nameHolder) ends() time.Time {
	if strings.HasPrefix(h.id, sshserver.GuestIDPrefix) {
		return h.seen.Add(guestNameHeld)
	}
	return h.seen.Add(nameHeld)
}

// nameHeld is how long a name stays its player's after their last visit;
// guestNameHeld a guest's, as long as their reclaim code brings them back
// (sshserver.GuestReclaimable): after that nobody can be that guest again.
const (
	nameHeld      = 30 * 24 * time.Hour
	guestNameHeld = sshserver.GuestReclaimable
)

// nameBookMax bounds the memory (about 250 bytes a name: 50 MB at most).
const nameBookMax = 200000

// taken reports whether another player holds a name that reads like name.
func (b *nameBook) taken(id, name string, now time.Time) bool {
	h := b.by[sanitize.Fold(name)]
	return h != nil && h.id != id && (h.online > 0 || now.Before(h.ends()))
}

// hold records that id holds name (seen now); online counts a session.
func (b *nameBook) hold(id, name string, now time.Time, online int) {
	if b.by == nil {
		b.by = map[string]*nameHolder{}
	}
	b.forget(now)
	f := sanitize.Fold(name)
	h := b.by[f]
	if h != nil && h.id != id {
		b.drop(h) // its hold ended (taken said so)
		h = nil
	}
	if h == nil {
		if len(b.by) >= nameBookMax && b.expiring.Len() > 0 {
			b.drop(b.expiring.Peek())
		}
		h = &nameHolder{fold: f, id: id, at: -1}
		b.by[f] = h
	}
	h.name, h.seen = name, now
	b.setOnline(h, h.online+online)
	if online > 0 {
		if b.used == nil {
			b.used = map[string]string{}
		}
		b.used[id] = f
	}
}

// setOnline sets h's count of sessions and keeps it in expiring while it
// has none.
func (b *nameBook) setOnline(h *nameHolder, n int) {
	h.online = n
	switch {
	case n > 0 && h.at >= 0:
		b.expiring.Remove(h)
	case n == 0 && h.at < 0:
		b.expiring.Push(h)
	case n == 0:
		b.expiring.Fix(h)
	}
}

// drop forgets a holder.
func (b *nameBook) drop(h *nameHolder) {
	if h.at >= 0 {
		b.expiring.Remove(h)
	}
	delete(b.by, h.fold)
	delete(b.next, h.fold)
}

// forget drops the offline holders whose hold has ended.
func (b *nameBook) forget(now time.Time) {
	for b.expiring.Len() > 0 && !now.Before(b.expiring.Peek().ends()) {
		b.drop(b.expiring.Peek())
	}
}

// Before and HeapIndex place offline holders in expiring (heapx), by
// when their hold ends.
func (h *nameHolder) Before(o *nameHolder) bool { return h.ends().Before(o.ends()) }
func (h *nameHolder) HeapIndex() *int           { return &h.at }

// seed records a stored player's name as last seen at seen.
func (b *nameBook) seed(id, name string, seen time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if name == "" || b.taken(id, name, seen) {
		return
	}
	b.hold(id, name, seen, 0)
}

// login gives id the name it asks for, or when another player holds it, a
// free numbered variant ("ann2"); the session counts as online until
// logout. It returns the name given. Variants are tried from the number
// after the last one given for that name, so finding one takes about one
// look whatever the number of holders (a freed lower number is not
// reused).
func (b *nameBook) login(id, name string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	given := name
	if b.taken(id, given, now) {
		if b.next == nil {
			b.next = map[string]int{}
		}
		f := sanitize.Fold(name)
		n := max(b.next[f], 2)
		for given = numbered(name, n); b.taken(id, given, now); given = numbered(name, n) {
			n++
		}
		if b.by[f] != nil { // the counter lives as long as the name's holder
			b.next[f] = n + 1
		}
	}
	b.hold(id, given, now, 1)
	return given
}

// numbered is name with the number n, cut to fit sanitize.MaxNameRunes.
func numbered(name string, n int) string {
	suffix := strconv.Itoa(n)
	base := name
	for utf8.RuneCountInString(base)+len(suffix) > sanitize.MaxNameRunes {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	return base + suffix
}

// logout ends one of id's sessions (under whichever name it has now).
func (b *nameBook) logout(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h := b.by[b.used[id]]; h != nil && h.id == id && h.online > 0 {
		h.seen = time.Now()
		b.setOnline(h, h.online-1)
		if h.online == 0 {
			delete(b.used, id)
		}
	}
}

// Rename moves id's session from old to name, unless another player holds
// name or it looks like a code (tui.Names).
func (b *nameBook) Rename(id, old, name string) error {
	if sshserver.SecretUser(name) != "" || b.holdsCode != nil && b.holdsCode(name) {
		// A guest typing their reclaim code here would show it to all.
		return game.Refuse(nil, game.M("ssh.gate.name_code"))
	}
	if err := b.checkReserved(id, name); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if b.taken(id, name, now) {
		return game.Refuse(nil, game.M("name.err.taken", game.Text("Name", name)))
	}
	online := 1
	if h := b.by[sanitize.Fold(old)]; h != nil && h.id == id && h.online > 0 {
		online = h.online // every session of id moves to the new name
		h.seen = now
		b.setOnline(h, 0)
	}
	b.hold(id, name, now, online)
	return nil
}

// checkReserved refuses id a name kept for the server's admins and bots
// (reservedNames), saying so; an admin may take one ("Admin Anna").
func (b *nameBook) checkReserved(id, name string) error {
	if b.reserved != nil && b.reserved.has(name) && (b.isAdmin == nil || !b.isAdmin(id)) {
		return game.Refuse(errReservedName, game.M("name.err.reserved", game.Text("Name", name)))
	}
	return nil
}

var errReservedName = errors.New("server: a reserved name")

// Holder is the player who holds a name that reads like name, with the
// name as they hold it.
func (b *nameBook) Holder(name string) (id, held string, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h := b.by[sanitize.Fold(name)]; h != nil {
		return h.id, h.name, true
	}
	return "", "", false
}

// Beginning is up to most holders (ID and name) whose folded names begin
// with prefix, a folded name.
func (b *nameBook) Beginning(prefix string, most int) [][2]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out [][2]string
	for f, h := range b.by {
		if strings.HasPrefix(f, prefix) {
			out = append(out, [2]string{h.id, h.name})
			if len(out) == most {
				break
			}
		}
	}
	return out
}
