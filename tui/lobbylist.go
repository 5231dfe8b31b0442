package tui

import (
	"slices"
	"sync"

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
// and the private tables, seen only by those they concern.
type sharedRooms struct {
	mu      sync.Mutex
	from    []table.Summary // the hub list the rest was made from
	public  []table.Summary // neither closed nor private, in hub order
	private []table.Summary // private and not closed
	lines   map[lineKey][]string
}

// lineKey is what a room line's drawing depends on, besides the room and
// whether the viewer sits there or has it selected.
type lineKey struct {
	th    *uikit.Theme
	width int
}

func sameList(a, b []table.Summary) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// split returns the public and private parts of rooms (the hub's list).
// Callers must not modify them.
func (s *sharedRooms) split(rooms []table.Summary) (public, private []table.Summary) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.use(rooms)
	return s.public, s.private
}

// use makes rooms the current list if it is not (s.mu held).
func (s *sharedRooms) use(rooms []table.Summary) {
	if s.from != nil && sameList(s.from, rooms) {
		return
	}
	s.from, s.public, s.private, s.lines = rooms, nil, nil, nil
	for _, r := range rooms {
		switch {
		case r.Status == table.StatusClosed:
		case r.Private:
			s.private = append(s.private, r)
		default:
			s.public = append(s.public, r)
		}
	}
	if s.from == nil {
		s.from = []table.Summary{}
	}
}

// line is the i-th public room's line drawn by draw for a viewer who
// neither sits there nor has it selected, drawn once per theme and width.
// rooms must be the list public came from; a stale list draws afresh.
func (s *sharedRooms) line(rooms []table.Summary, k lineKey, i int, draw func() string) string {
	s.mu.Lock()
	if !sameList(s.from, rooms) {
		s.mu.Unlock()
		return draw()
	}
	if s.lines == nil {
		s.lines = map[lineKey][]string{}
	}
	ls := s.lines[k]
	if ls == nil {
		ls = make([]string, len(s.public))
		s.lines[k] = ls
	}
	if l := ls[i]; l != "" {
		s.mu.Unlock()
		return l
	}
	s.mu.Unlock()
	l := draw() // outside the lock: two sessions may draw the same line once each
	s.mu.Lock()
	if sameList(s.from, rooms) {
		s.lines[k][i] = l
	}
	s.mu.Unlock()
	return l
}

// concerns reports whether a private room is listed to player me: its
// host, a campaign member or a player seated there.
func concerns(r table.Summary, me string) bool {
	return r.Host == me || slices.Contains(r.Allowed, me) || slices.Contains(r.Players, me)
}
