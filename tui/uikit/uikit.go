// Package uikit holds what every screen of a session shares: the messages a
// screen uses to ask the session for something, and the Screen contract that
// game table screens implement. Styles live in theme.go, built per session.
package uikit

import (
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// ActMsg asks the session to submit a game action to its room. Seq is the
// Update.Seq the player was looking at, so a stale keypress is refused
// rather than applied to a table that has moved on.
type ActMsg struct {
	Seq    int
	Action game.Action
}

// Actions sends a screen's actions: straight to the session once it says
// where (Direct), else as a command that yields the ActMsg (tests and tools
// that drive a screen on its own). Straight, a move skips two trips through
// Bubble Tea on its way to the room: a new goroutine for the command, then
// the event loop again for its message.
type Actions struct{ direct func(ActMsg) }

// Send sends m: it returns the command that carries it, or nil when m
// went straight to the session.
func (a *Actions) Send(m ActMsg) tea.Cmd {
	if a.direct != nil {
		a.direct(m)
		return nil
	}
	return func() tea.Msg { return m }
}

// To sends every later action to submit, called on the program's goroutine
// within the screen's Update.
func (a *Actions) To(submit func(ActMsg)) { a.direct = submit }

// Direct is a screen whose actions can go straight to the session.
type Direct interface {
	SendActionsTo(submit func(ActMsg))
}

// SayMsg asks the session to send a chat line to its room.
type SayMsg struct{ Text string }

// LeaveMsg asks the session to leave the table for the lobby.
type LeaveMsg struct{}

// UpdateMsg carries the newest room Update to a screen. It holds a
// pointer so that it goes into a tea.Msg without being copied to the heap:
// a seat's program takes a table's Update without allocating (the first
// allocation of a goroutine while the collector marks costs it an assist).
// The screen copies what it keeps before Update returns.
type UpdateMsg struct{ *table.Update }

// ViewOf is the game's view an Update carries, as a value: the room
// sends V, a cluster's remote table may send *V; ok is false without one
// (the table has not started, or the view is another game's).
func ViewOf[V any](u *table.Update) (v V, ok bool) {
	switch x := u.View.(type) {
	case V:
		return x, true
	case *V:
		if x != nil {
			return *x, true
		}
	}
	return v, false
}

// Noticed is implemented by screens that draw the session's notice (the
// coach's hint, a problem) on lines of their own under the table, their
// body that much shorter: laid over the table's last line, a notice hid
// what that line offered (a charm's targets, a mission's sizes). lines is
// the notice as drawn, its lines (at most three) separated by "\n", ""
// for none.
type Noticed interface {
	SetNotice(lines string)
}

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
	// its own ticks) and may return a command producing ActMsg or LeaveMsg
	// (actions go straight to the session instead once it says where:
	// Direct).
	Update(msg tea.Msg) tea.Cmd
	View() string
	// Keys lists the screen's bindings for the help bar; disabled bindings
	// (moves the game would refuse now) are left out by bubbles/help.
	Keys() help.KeyMap
}

// ShortHelpAppender is a key map that can add its help bar's bindings to
// a slice the caller keeps: ShortHelp makes a new slice on every frame (a
// kilobyte for a table's bar).
type ShortHelpAppender interface {
	AppendShortHelp(dst []key.Binding) []key.Binding
}

// Lined is a Screen that also gives its View as lines: the session builds
// its frames from lines, and joining a screen only to split it again cost
// two copies of every frame.
type Lined interface {
	Lines() []string
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

// Plain is a Screen that also speaks in lines, for the plain (screen
// reader) mode: the same view and the same catalog words as the full
// screen, without cursor addressing or drawing.
type Plain interface {
	// Look is the situation in sentences: what the game asks of the
	// viewer, the table, and (Hand) the viewer's own cards.
	Look() []string
	// Hand is the viewer's hand (or card), one item a line.
	Hand() []string
	// Table is the public table: threats, soldiers, players.
	Table() []string
	// Asked is what the game asks of the viewer now ("" when nothing).
	Asked() string
	// Moves are the viewer's legal actions with their words; a player
	// picks one by its number or by one of its commands.
	Moves() []Move
}

// Move is one legal action as plain mode offers it.
type Move struct {
	Label    string      // what it does, in the viewer's language
	Commands []string    // lower-case commands that pick it: "play 2", "withdraw l"
	Action   game.Action // passed to the room unchanged
}

// Coached is a Screen that can teach the guided first mission: StartCoach
// turns its coach on; Lesson is the lesson on show, NextLesson dismisses
// it, CoachDone says the last one was given.
type Coached interface {
	StartCoach()
	Lesson() (text string, more int)
	NextLesson()
	CoachDone() bool
}

// Hinter is a Screen whose game's bot can advise the seat: Hint returns a
// command that works it out from the seat's own view (off the session's
// loop) and says it in one line.
type Hinter interface {
	Hint() tea.Cmd
}

// HintMsg is a hint, or why there is none, for the player's notice line.
type HintMsg string

// Rules is a Screen with a rules reference: one page per card or role,
// and pages on how a turn goes, in the viewer's language. It needs no
// view: a fresh Screen answers it.
type Rules interface {
	RulePages() []RulePage
}

// RulePage is one page of a rules reference.
type RulePage struct {
	Title string   // the card, role or topic: "H15 Selfish"
	Codes []string // other words that find it exactly: "h15", "t07"
	Body  string   // the full text; "\n" separates paragraphs
}

// FindRules is the pages a search finds: a page one of whose codes is
// what, else the pages whose title is what, then those whose title holds
// it, then those whose text does; case and accents aside. An empty search
// finds every page.
func FindRules(pages []RulePage, what string) []RulePage {
	what = searchFold(strings.TrimSpace(what))
	if what == "" {
		return pages
	}
	for _, p := range pages {
		if slices.Contains(p.Codes, what) {
			return []RulePage{p}
		}
	}
	var exact, byTitle, byText []RulePage
	for _, p := range pages {
		switch title := searchFold(p.Title); {
		case title == what:
			exact = append(exact, p)
		case strings.Contains(title, what):
			byTitle = append(byTitle, p)
		case strings.Contains(searchFold(p.Body), what):
			byText = append(byText, p)
		}
	}
	return append(append(exact, byTitle...), byText...)
}

// searchFold is s lower-cased without accents, so "zolnierz" finds
// "żołnierz" and "grün" finds "Grun".
func searchFold(s string) string { return strings.ToLower(ToASCII(s)) }
