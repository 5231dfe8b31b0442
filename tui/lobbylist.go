package tui

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
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
// theirs again. Readers take no lock: at 10,000 sessions one mutex taken
// for every line of every lobby frame became a queue that held every
// lobby up (a key waited seconds for its frame).
type sharedRooms struct {
	mu     sync.Mutex                    // taken to add a split or ask the hub
	recent atomic.Pointer[[4]*roomSplit] // newest first; replaced, never changed
	list   atomic.Pointer[hubList]       // the hub's list as last asked
}

// hubList is the hub's room list and when it was asked for.
type hubList struct {
	rooms []table.Summary
	at    time.Time
}

// roomSplit is one hub list, split, with the lines drawn from it.
type roomSplit struct {
	from    []table.Summary // the hub list
	public  []table.Summary // neither closed nor private, in hub order
	private []table.Summary // private and not closed
	waiting []table.Summary // correspondence tables under way waiting on someone (uikit.YourMoves reads these)
	lines   sync.Map        // lineKey → []atomic.Pointer[string], one per public room
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
	if l := s.list.Load(); l != nil && l.at.After(since) {
		return l.rooms
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.list.Load(); l != nil && l.at.After(since) {
		return l.rooms
	}
	l := &hubList{at: time.Now()}
	l.rooms = h.List()
	s.list.Store(l)
	return l.rooms
}

// split returns the public and private parts of rooms (the hub's list).
// Callers must not modify them.
func (s *sharedRooms) split(rooms []table.Summary) (public, private []table.Summary) {
	sp := s.splitOf(rooms)
	return sp.public, sp.private
}

// waiting are the correspondence tables of rooms that wait on someone:
// few, so each session looks for its own moves among them only.
func (s *sharedRooms) waiting(rooms []table.Summary) []table.Summary { return s.splitOf(rooms).waiting }

func (s *sharedRooms) splitOf(rooms []table.Summary) *roomSplit {
	sp := s.find(rooms)
	if sp == nil {
		s.mu.Lock()
		if sp = s.find(rooms); sp == nil {
			sp = newSplit(rooms)
			var next [4]*roomSplit
			if old := s.recent.Load(); old != nil {
				copy(next[1:], old[:])
			}
			next[0] = sp
			s.recent.Store(&next)
		}
		s.mu.Unlock()
	}
	return sp
}

// find is the split of rooms if it is one of the recent ones.
func (s *sharedRooms) find(rooms []table.Summary) *roomSplit {
	recent := s.recent.Load()
	if recent == nil {
		return nil
	}
	for _, sp := range recent {
		if sp != nil && sameList(sp.from, rooms) {
			return sp
		}
	}
	return nil
}

// newSplit splits a hub list. When every room in it is public and open,
// as while tables play, the public part is the hub's list itself: a copy
// of 2,000 summaries for each change of the lobby was 7% of what the
// server allocated while playing (docs/PERFORMANCE.md).
func newSplit(rooms []table.Summary) *roomSplit {
	sp := &roomSplit{from: rooms}
	public := 0
	for _, r := range rooms {
		if r.Status != table.StatusClosed && !r.Private {
			public++
		}
		if len(r.Waiting) > 0 && r.Status == table.StatusPlaying {
			sp.waiting = append(sp.waiting, r)
		}
	}
	if public == len(rooms) {
		sp.public = rooms[:len(rooms):len(rooms)]
		return sp
	}
	sp.public = make([]table.Summary, 0, public)
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
// not sit there, drawn once per theme, width and selection. rooms is the
// hub list the viewer's public list came from; a list no longer kept draws
// afresh. Two sessions may draw the same line at once; both are the same.
func (s *sharedRooms) line(rooms []table.Summary, k lineKey, i int, draw func() string) string {
	sp := s.find(rooms)
	if sp == nil {
		return draw()
	}
	v, ok := sp.lines.Load(k)
	if !ok {
		v, _ = sp.lines.LoadOrStore(k, make([]atomic.Pointer[string], len(sp.public)))
	}
	slot := &v.([]atomic.Pointer[string])[i]
	if l := slot.Load(); l != nil {
		return *l
	}
	l := draw()
	slot.Store(&l)
	return l
}

// concerns reports whether a private room is listed to player me: its
// host, a campaign member or a player seated there.
func concerns(r table.Summary, me string) bool {
	return r.Host == me || slices.Contains(r.Allowed, me) || slices.Contains(r.Players, me)
}
