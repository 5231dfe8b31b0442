package tui

import (
	"slices"
	"sync"
	"time"

	"bivouac/table"
	"bivouac/tui/uikit"
)

// The lobby's room list, shared by every session that sees the same thing.
//
// Each lobby session used to filter the hub's list into its own copy and
// draw every line of it itself. At 10,000 sessions and 2,000 tables that
// was a copy of 2,000 summaries per session (gigabytes) and, at four lobby
// changes a second, 600,000 room lines drawn a second while tables filled
// (docs/PERFORMANCE.md). Nearly every session sees the same list, the
// public one, and draws its lines in one of a handful of themes, so both
// are made once per hub list and shared; a session keeps its own only for
// what is its own (a private table it may see, a table it sits at, the
// selected line).

// sharedRooms splits each new hub list once into what everyone may see
// and the private tables, seen only by those they concern. It keeps the
// last few lists: sessions take up a new list each at its own pace, and a
// session still drawing the previous one must not make the others split
// theirs again (at 10,000 sessions that convoy held every lobby up).
type sharedRooms struct {
	mu     sync.Mutex
	recent [4]*roomSplit // newest first

	listMu sync.Mutex      // one session at a time asks the hub
	list   []table.Summary // the hub's list as last asked
	listAt time.Time       // when it was asked for
}

// roomSplit is one hub list, split, with the lines drawn from it.
type roomSplit struct {
	from    []table.Summary // the hub list
	public  []table.Summary // neither closed nor private, in hub order
	private []table.Summary // private and not closed
	lines   map[lineKey][]string
}

// lineKey is what a room line's drawing depends on, besides the room and
// whether the viewer sits there.
type lineKey struct {
	th       *uikit.Theme
	width    int
	selected bool
}

func sameList(a, b []table.Summary) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// current is the hub's room list as it was at since or later. The hub
// tells every lobby session of a change at once; the first to ask makes
// the list and the others take it, instead of ten thousand sessions
// copying and sorting every room at the same moment.
func (s *sharedRooms) current(h *table.Hub, since time.Time) []table.Summary {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	if s.list == nil || !s.listAt.After(since) {
		s.listAt = time.Now()
		s.list = h.List()
	}
	return s.list
}

// split returns the public and private parts of rooms (the hub's list).
// Callers must not modify them.
func (s *sharedRooms) split(rooms []table.Summary) (public, private []table.Summary) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := s.find(rooms)
	if sp == nil {
		sp = newSplit(rooms)
		copy(s.recent[1:], s.recent[:len(s.recent)-1])
		s.recent[0] = sp
	}
	return sp.public, sp.private
}

// find is the split of rooms if it is one of the recent ones (s.mu held).
func (s *sharedRooms) find(rooms []table.Summary) *roomSplit {
	for _, sp := range s.recent {
		if sp != nil && sameList(sp.from, rooms) {
			return sp
		}
	}
	return nil
}

func newSplit(rooms []table.Summary) *roomSplit {
	sp := &roomSplit{from: rooms}
	for _, r := range rooms {
		switch {
		case r.Status == table.StatusClosed:
		case r.Private:
			sp.private = append(sp.private, r)
		default:
			sp.public = append(sp.public, r)
		}
	}
	return sp
}

// line is the i-th public room's line drawn by draw for a viewer who does
// not sit there, drawn once per theme, width and selection.
// rooms is the hub list the viewer's public list came from; a list no
// longer kept draws afresh.
func (s *sharedRooms) line(rooms []table.Summary, k lineKey, i int, draw func() string) string {
	s.mu.Lock()
	sp := s.find(rooms)
	if sp == nil {
		s.mu.Unlock()
		return draw()
	}
	if sp.lines == nil {
		sp.lines = map[lineKey][]string{}
	}
	ls := sp.lines[k]
	if ls == nil {
		ls = make([]string, len(sp.public))
		sp.lines[k] = ls
	}
	if l := ls[i]; l != "" {
		s.mu.Unlock()
		return l
	}
	s.mu.Unlock()
	l := draw() // outside the lock: two sessions may draw the same line once each
	s.mu.Lock()
	ls[i] = l
	s.mu.Unlock()
	return l
}

// concerns reports whether a private room is listed to player me: its
// host, a campaign member or a player seated there.
func concerns(r table.Summary, me string) bool {
	return r.Host == me || slices.Contains(r.Allowed, me) || slices.Contains(r.Players, me)
}
