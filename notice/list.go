package notice

import (
	"slices"
	"time"
)

// List is what a session keeps of the notices it was given: the live
// ones, newest last, each ID once. Its zero value is empty.
type List struct {
	items []Notice
}

// MaxLive is the most notices a session keeps at once (the oldest go).
const MaxLive = MaxQueued

// Add takes what an inbox gave: a notice replaces one with its ID, a
// withdrawal removes it. It reports whether a new notice (not a
// withdrawal) came that was not in the list before, or came again: the
// session rings then.
func (l *List) Add(ns []Notice, now time.Time) (rang bool) {
	for _, n := range ns {
		l.items = slices.DeleteFunc(l.items, func(x Notice) bool { return x.ID == n.ID })
		if n.Gone {
			continue
		}
		l.items = append(l.items, n)
		if !n.Quiet {
			rang = true
		}
	}
	l.prune(now)
	if len(l.items) > MaxLive {
		l.items = slices.Delete(l.items, 0, len(l.items)-MaxLive)
	}
	return rang
}

// prune drops lapsed notices.
func (l *List) prune(now time.Time) {
	l.items = slices.DeleteFunc(l.items, func(x Notice) bool { return !x.Until.IsZero() && !now.Before(x.Until) })
}

// Live is the notices still live at now, oldest first (shared: read only).
func (l *List) Live(now time.Time) []Notice {
	l.prune(now)
	return l.items
}

// Newest is the newest live notice, if any.
func (l *List) Newest(now time.Time) (Notice, bool) {
	l.prune(now)
	if len(l.items) == 0 {
		return Notice{}, false
	}
	return l.items[len(l.items)-1], true
}

// Remove drops the notice id (it was acted on, or dismissed).
func (l *List) Remove(id string) {
	l.items = slices.DeleteFunc(l.items, func(x Notice) bool { return x.ID == id })
}

// NextLapse is when the first live notice lapses (zero: none will).
func (l *List) NextLapse() time.Time {
	var next time.Time
	for _, x := range l.items {
		if !x.Until.IsZero() && (next.IsZero() || x.Until.Before(next)) {
			next = x.Until
		}
	}
	return next
}
