package tui

import (
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/presence"
)

// An offline friend seen going reads "last seen today" or "yesterday" by
// the calendar day, earlier the date, never a time; never seen, offline.
func TestLastSeenIsADay(t *testing.T) {
	th := testApp(t).Theme(nil, i18n.English, false)
	now := time.Date(2026, 11, 29, 0, 30, 0, 0, time.Local)
	for _, c := range []struct {
		seen time.Time
		want string
	}{
		{now.Add(-10 * time.Minute), "last seen today"},
		{now.Add(-40 * time.Minute), "last seen yesterday"},
		{now.Add(-24 * time.Hour), "last seen yesterday"},
		{now.Add(-25 * time.Hour), "last seen 2026-11-27"},
		{time.Time{}, "offline"},
	} {
		if got := seenText(th, c.seen, now); got != c.want {
			t.Errorf("seen %v at %v: %q; want %q", c.seen, now, got, c.want)
		}
	}
	if got := WhereText(th, nil, presence.Status{Seen: time.Now()}, false); got != "last seen today" {
		t.Errorf("WhereText of a friend seen going just now: %q", got)
	}
}
