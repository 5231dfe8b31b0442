// Package uikit holds what every screen of a session shares: the messages a
// screen uses to ask the session for something, and the Screen contract that
// game table screens implement. Styles live in theme.go, built per session.
package uikit

import (
	"bivouac/game"
	"bivouac/table"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// ActMsg asks the session to submit a game action to its room. Seq is the
// Update.Seq the player was looking at, so a stale keypress is refused
// rather than applied to a table that has moved on.
type ActMsg struct {
	Seq    int
	Action game.Action
}

// SayMsg asks the session to send a chat line to its room.
type SayMsg struct{ Text string }

// LeaveMsg asks the session to leave the table for the lobby.
type LeaveMsg struct{}

// UpdateMsg carries the newest room Update into a program (sent by the
// session's pump, the only caller of Program.Send).
type UpdateMsg struct{ table.Update }

// Quiet is implemented by screens that must sometimes look the same for
// every seat (a sleeping village, Werewolves §11.2): while Quiet is true
// the session draws nothing of its own over the screen.
type Quiet interface {
	Quiet() bool
}

// Screen is a game's table screen. The session's root model owns focus,
// chat and the help bar; the screen draws the table and turns keys into
// ActMsg commands. It never talks to the room directly.
type Screen interface {
	// SetUpdate gives the screen the newest Update (its View is the game's
	// view type). The session's root sends each Update as an UpdateMsg
	// through Update instead, so a screen can start a countdown tick there;
	// SetUpdate is for tests and tools that draw a screen on its own.
	SetUpdate(u table.Update)
	// SetSize is the area the screen may draw in.
	SetSize(width, height int)
	// Update handles a message (UpdateMsg, keys while the table has focus,
	// its own ticks) and may return a command producing ActMsg or LeaveMsg.
	Update(msg tea.Msg) tea.Cmd
	View() string
	// Keys lists the screen's bindings for the help bar; disabled bindings
	// (moves the game would refuse now) are left out by bubbles/help.
	Keys() help.KeyMap
}

// Guide is a Screen with a short summary of its game's rules and a key to
// its symbols, which the help page shows at the table.
type Guide interface {
	Guide() string
}

// ChatHinter is a Screen that knows where a chat line would go now (the
// pack, the graveyard, the whole table); the session shows it in its prompt.
type ChatHinter interface {
	ChatHint() string
}
