package tui

import (
	"fmt"
	"strings"

	"github.com/bivouac-ssh/bivouac/tui/frames"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// The root is the Screen a session's frames are drawn from (frames.New).
var _ frames.Screen = (*root)(nil)

// Sent reports whether the last Update sent the table an action, and
// forgets it.
func (m *root) Sent() bool {
	sent := m.sent
	m.sent = false
	return sent
}

// Answer reports whether msg is the table's news: the answer to an action
// usually follows it within a millisecond.
func (m *root) Answer(msg tea.Msg) bool {
	_, ok := msg.(updateArrived)
	return ok
}

// Goodbye is why the session is ending, "" while it is not, word-wrapped
// to the terminal's width: it is written on the normal screen, where a
// long one broke mid-word ("weiterzuspi|elen").
func (m *root) Goodbye() string {
	if m.closed == "" || m.width < 1 {
		return m.closed
	}
	return strings.Join(uikit.Hanging(m.closed, m.width, ""), "\n")
}

// Crashed logs a bug in one of the session's screens, which ends the
// session alone, and says the goodbye that leaves its terminal whole.
func (m *root) Crashed(p any, stack []byte) string {
	m.app.logger().Error("panic in a session", "panic", fmt.Sprint(p), "stack", string(stack))
	return m.th.T(internalErrorGoodbye)
}
