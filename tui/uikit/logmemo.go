package uikit

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// LogMemo keeps the lines a screen drew for each event of its log from one
// frame to the next. Every Update carries the table's last few dozen events,
// and all but the newest were drawn on the frame before: rendering their
// words and wrapping them again was about half of what a frame cost while
// tables played (docs/PERFORMANCE.md).
//
// Events are matched by address (the room keeps each event once and every
// Update points to it), else by what they say, in the order they
// are asked for (the same every frame, oldest or newest first): the next
// frame's log is the last one's with old events gone from the front and
// new ones at the end. A frame's lines are kept for the next frame only,
// so the memo never holds more than the events one frame showed. The zero
// value is ready to use; it belongs to one screen (no locking).
type LogMemo struct {
	th        *Theme
	tr        *i18n.Printer
	w         int
	prev, cur []drawnEvent
	next      int // where the search of prev resumes
}

type drawnEvent struct {
	ev    *game.Event // read only: shared with the Update it came in
	who   string      // what else the lines show of the event: the speaker's name as drawn
	lines []string
}

// Begin starts a frame drawn with th at width w: the lines of the last
// frame are reused only if both are the same (the language too).
func (m *LogMemo) Begin(th *Theme, w int) {
	if m.th != th || m.tr != th.Printer() || m.w != w {
		m.th, m.tr, m.w = th, th.Printer(), w
		clear(m.cur)
		m.cur = m.cur[:0]
	}
	clear(m.prev)
	m.prev, m.cur = m.cur, m.prev[:0]
	m.next = 0
}

// Lines are e's lines: those the last frame drew for an event saying the
// same (with the same who), else what draw returns. Callers ask for their
// events in log order (or its reverse) every frame, once each, and must
// not change the lines.
func (m *LogMemo) Lines(e *game.Event, who string, draw func() []string) []string {
	for i := m.next; i < len(m.prev); i++ {
		if d := &m.prev[i]; d.who == who && (d.ev == e || sameEvent(d.ev, e)) {
			m.cur = append(m.cur, *d)
			m.next = i + 1
			return d.lines
		}
	}
	lines := draw()
	m.cur = append(m.cur, drawnEvent{ev: e, who: who, lines: lines})
	return lines
}

// sameEvent: a and b draw the same (the audience aside, which only decides
// who gets the event).
func sameEvent(a, b *game.Event) bool {
	if a.Kind != b.Kind || a.From != b.From || a.Channel != b.Channel || a.Text != b.Text || a.Msg.Key != b.Msg.Key ||
		len(a.Msg.Args) != len(b.Msg.Args) {
		return false
	}
	// An event made again from the same one (a replay's step, a screen's
	// own list) shares its arguments with it: the same backing array spares
	// comparing them one by one on every frame.
	if len(a.Msg.Args) == 0 || &a.Msg.Args[0] == &b.Msg.Args[0] {
		return true
	}
	return a.Msg.Equal(b.Msg)
}
