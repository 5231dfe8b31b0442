package server

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/sshserver"
)

// nameBook keeps display names apart: a name (compared by sanitize.Fold,
// so look-alikes count as the same) belongs to the player who used it, as
// long as they are online or were seen within nameHeld. Another player who
// logs in under it gets a numbered variant and is told; a rename to it is
// refused. Chat lines carry names, so this is what keeps one player from
// speaking as another.
//
// It lives in memory, seeded at start from the stored profiles' names.
type nameBook struct {
	reserved *reservedNames       // names no player may take (nil: none)
	isAdmin  func(id string) bool // an admin may take them (nil: nobody)
	// holdsCode: the name holds a reclaim code the server knows (nil: none)
	holdsCode func(name string) bool

	mu   sync.Mutex
	by   map[string]*nameHolder // fold → holder
	used map[string]string      // player ID → fold of the name its sessions go by
}

type nameHolder struct {
	id     string
	name   string
	seen   time.Time
	online int // sessions open now
}

// nameHeld is how long a name stays its player's after their last visit.
const nameHeld = 30 * 24 * time.Hour

// nameBookMax bounds the memory; past it, names of long-gone players go.
const nameBookMax = 200000

// taken reports whether another player holds a name that reads like name.
func (b *nameBook) taken(id, name string, now time.Time) bool {
	h := b.by[sanitize.Fold(name)]
	return h != nil && h.id != id && (h.online > 0 || now.Sub(h.seen) < nameHeld)
}

// hold records that id holds name (seen now); online counts a session.
func (b *nameBook) hold(id, name string, now time.Time, online int) {
	if b.by == nil {
		b.by = map[string]*nameHolder{}
	}
	if len(b.by) >= nameBookMax {
		b.forget(now)
	}
	f := sanitize.Fold(name)
	h := b.by[f]
	if h == nil || h.id != id {
		h = &nameHolder{id: id}
		b.by[f] = h
	}
	h.name, h.seen = name, now
	h.online += online
	if online > 0 {
		if b.used == nil {
			b.used = map[string]string{}
		}
		b.used[id] = f
	}
}

func (b *nameBook) forget(now time.Time) {
	for f, h := range b.by {
		if h.online == 0 && now.Sub(h.seen) >= nameHeld/2 {
			delete(b.by, f)
		}
	}
}

// seed records a stored player's name as last seen at seen.
func (b *nameBook) seed(id, name string, seen time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if name == "" || b.taken(id, name, seen) {
		return
	}
	b.hold(id, name, seen, 0)
}

// login gives id the name it asks for, or when another player holds it, the
// first free numbered variant ("ann2"); the session counts as online until
// logout. It returns the name given.
func (b *nameBook) login(id, name string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	given := name
	for n := 2; b.taken(id, given, now); n++ {
		suffix := strconv.Itoa(n)
		base := name
		for utf8.RuneCountInString(base)+len(suffix) > sanitize.MaxNameRunes {
			_, size := utf8.DecodeLastRuneInString(base)
			base = base[:len(base)-size]
		}
		given = base + suffix
	}
	b.hold(id, given, now, 1)
	return given
}

// logout ends one of id's sessions (under whichever name it has now).
func (b *nameBook) logout(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h := b.by[b.used[id]]; h != nil && h.id == id && h.online > 0 {
		h.online--
		h.seen = time.Now()
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
		h.online = 0
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

// holder is the player who holds a name that reads like name, with the
// name as they hold it.
func (b *nameBook) holder(name string) (id, held string, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h := b.by[sanitize.Fold(name)]; h != nil {
		return h.id, h.name, true
	}
	return "", "", false
}

// beginning is up to most holders (ID and name) whose folded names begin
// with prefix, a folded name.
func (b *nameBook) beginning(prefix string, most int) [][2]string {
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
