// Package live is a node's register of player sessions, by identity: what
// `admin who` lists, what a ban, a kick or an admin's notice reaches, and
// what a drain sends on to another node. Each session is in it from its
// start to its end, with a way to speak to it that never blocks.
package live

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Session is one player's session as the admins see it: who, since
// when, and a way to speak to it (a notice, or its end).
type Session struct {
	Who   sshserver.Identity
	Name  string // the name it logged in under (DisplayName: the one it goes by now)
	Since time.Time
	Send  func(tui.Control) // never blocks
	Plain bool              // a plain (screen reader) session

	renamed atomic.Pointer[string] // the name taken since, if any (Rename)
}

// DisplayName is the name the session's player goes by now: the last
// Rename's, else the one it logged in under.
func (s *Session) DisplayName() string {
	if n := s.renamed.Load(); n != nil {
		return *n
	}
	return s.Name
}

// Sessions is the register; its zero value is empty and ready.
type Sessions struct {
	mu sync.Mutex
	m  map[*Session]struct{}
}

// Add registers s; the function returned takes it off again.
func (l *Sessions) Add(s *Session) func() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[*Session]struct{}{}
	}
	l.m[s] = struct{}{}
	return func() {
		l.mu.Lock()
		delete(l.m, s)
		l.mu.Unlock()
	}
}

// List is the sessions matching keep (all, if nil), by name then start.
func (l *Sessions) List(keep func(*Session) bool) []*Session {
	l.mu.Lock()
	out := make([]*Session, 0, len(l.m))
	for s := range l.m {
		if keep == nil || keep(s) {
			out = append(out, s)
		}
	}
	l.mu.Unlock()
	slices.SortFunc(out, func(a, b *Session) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.DisplayName()), strings.ToLower(b.DisplayName())), a.Since.Compare(b.Since))
	})
	return out
}

// Rename gives every session of the player id the name they renamed
// themselves to: `admin who` lists them, and finds them, under it.
func (l *Sessions) Rename(id, name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for s := range l.m {
		if s.Who.ID == id {
			s.renamed.Store(&name)
		}
	}
}

// Of is the sessions of one identity.
func (l *Sessions) Of(id string) []*Session {
	return l.List(func(s *Session) bool { return s.Who.ID == id })
}

// Each calls f for every session, in no order, with the register held:
// for counts taken often (a metrics scrape), without a sorted copy.
func (l *Sessions) Each(f func(*Session)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for s := range l.m {
		f(s)
	}
}
