package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// A session shows one page at a time: the lobby, the new-table form, a
// table (its waiting room, then the game's screen), the profile, the
// campaigns, one campaign, a replay. The router (root) holds what every
// page shares: the App, the session and its player, the theme and window,
// the notice, the prompt line, the help overlay and the table this session
// sits at. It hands itself to the page it shows. A page keeps its own
// state and never reaches into another page; it moves the session on
// through the router (show, toLobby, sitDown, openPrompt).
type page interface {
	// key handles a key the router did not take (quit, prompts, help).
	key(m *root, k tea.KeyMsg) tea.Cmd
	// view is the page above the bottom line.
	view(m *root) string
	// bar is the bottom line when no prompt is open: the page's keys.
	bar(m *root) string
	// keys are the help overlay's columns.
	keys(m *root) [][]key.Binding
}

// linedPage is a page that gives its view as lines (a game screen's, see
// uikit.Lined), which root.frame takes as they are. The method's name is
// its own so no page gives frame lines by accident.
type linedPage interface {
	frameLines(m *root) []string
}

// resizer is a page that holds a game screen, which must know its size.
type resizer interface {
	resize(w, h int)
}
