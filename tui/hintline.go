package tui

import (
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// hintLine is the coach's hint on the notice line, which stands over the
// table's status line ("▸ Your turn"). A hint is advice for one moment of
// the game: it goes once the game moves on (a move, anyone's), and a hint
// worked out for a moment already gone is never shown.
type hintLine struct {
	asked int    // the update the pending hint was asked at
	shown string // the hint on the notice line, "" for none
	at    int    // the update it was shown at
}

// ask notes that a hint was asked at update seq.
func (h *hintLine) ask(m *root, seq int) {
	h.asked = seq
	m.notice = m.th.T("ui.hint.thinking")
	h.shown, h.at = m.notice, seq
}

// arrived shows hint text, if the game has not moved on since it was asked.
func (h *hintLine) arrived(m *root, msg uikit.HintMsg) {
	if m.at == nil {
		return
	}
	if m.at.upd.Seq != h.asked {
		h.clear(m)
		return
	}
	m.notice = string(msg)
	h.shown, h.at = m.notice, h.asked
}

// moved clears the hint once the table's update seq is no longer the
// one it was shown at.
func (h *hintLine) moved(m *root, seq int) {
	if h.shown != "" && seq != h.at {
		h.clear(m)
	}
}

// clear takes the hint off the notice line (another notice stays).
func (h *hintLine) clear(m *root) {
	if h.shown != "" && m.notice == h.shown {
		m.notice = ""
	}
	h.shown = ""
}
