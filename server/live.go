package server

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/tui"
)

// liveSession is one player's session as the admins see it: who, since
// when, and a way to speak to it (a notice, or its end).
type liveSession struct {
	id    sshserver.Identity
	name  string
	lang  i18n.Lang
	since time.Time
	send  func(tui.Control) // never blocks
	plain bool              // a plain (screen reader) session
}

// liveSessions is this node's register of player sessions, by identity:
// what `admin who` lists, and what a ban or a kick ends.
type liveSessions struct {
	mu sync.Mutex
	m  map[*liveSession]struct{}
}

// add registers ls; the function returned takes it off again.
func (l *liveSessions) add(ls *liveSession) func() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[*liveSession]struct{}{}
	}
	l.m[ls] = struct{}{}
	return func() {
		l.mu.Lock()
		delete(l.m, ls)
		l.mu.Unlock()
	}
}

// list is the sessions matching keep (all, if nil), by name then start.
func (l *liveSessions) list(keep func(*liveSession) bool) []*liveSession {
	l.mu.Lock()
	out := make([]*liveSession, 0, len(l.m))
	for ls := range l.m {
		if keep == nil || keep(ls) {
			out = append(out, ls)
		}
	}
	l.mu.Unlock()
	slices.SortFunc(out, func(a, b *liveSession) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), a.since.Compare(b.since))
	})
	return out
}

// of is the sessions of one identity.
func (l *liveSessions) of(id string) []*liveSession {
	return l.list(func(ls *liveSession) bool { return ls.id.ID == id })
}
