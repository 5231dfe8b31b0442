package uikit

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// Abilities are what a game's screen may do beyond the Screen contract,
// all in one place: each is an interface of this package, and each field
// is the screen itself when it implements that interface, else nil. The
// session looks them up once, when it makes the screen (AbilitiesOf), and
// asks the field: no page type-asserts a screen.
//
//   - Alarmed: its timers go through the session's alarm (a countdown).
//   - Direct: its actions go straight to the session (uikit.Actions).
//   - Noticed: it draws the session's notice on a line of its own;
//     without it the session gives the screen a line less and draws it.
//   - Quiet: it must sometimes look the same for every seat (a sleeping
//     village): the session then draws nothing of its own over it.
//   - Lined: it gives its view as lines (else View is split).
//   - Guide: a short summary of its rules for the help page.
//   - ChatHinter: it says where a chat line would go now.
//   - Muting: it draws chat from its view, so it is told whom to mute.
//   - Plain: it speaks in lines for plain mode (else plain mode reads its
//     moves and lines: PlainOf).
//   - Coached: it teaches the guided first mission at Practice tables.
//   - Hinter: its game's bot can advise the seat (tables with hints).
//   - Rules: it has a rules reference (asked of a fresh screen, too).
type Abilities struct {
	Alarmed    Alarmed
	Direct     Direct
	Noticed    Noticed
	Quiet      Quiet
	Lined      Lined
	Guide      Guide
	ChatHinter ChatHinter
	Muting     Muting
	Plain      Plain
	Coached    Coached
	Hinter     Hinter
	Rules      Rules
}

// AbilitiesOf is what screen s may do beyond the Screen contract (nil s:
// nothing).
func AbilitiesOf(s Screen) Abilities {
	var a Abilities
	if s == nil {
		return a
	}
	a.Alarmed, _ = s.(Alarmed)
	a.Direct, _ = s.(Direct)
	a.Noticed, _ = s.(Noticed)
	a.Quiet, _ = s.(Quiet)
	a.Lined, _ = s.(Lined)
	a.Guide, _ = s.(Guide)
	a.ChatHinter, _ = s.(ChatHinter)
	a.Muting, _ = s.(Muting)
	a.Plain, _ = s.(Plain)
	a.Coached, _ = s.(Coached)
	a.Hinter, _ = s.(Hinter)
	a.Rules, _ = s.(Rules)
	return a
}

// AppendShortHelp appends the help bar's bindings of a key map to dst,
// without the slice ShortHelp would make on every frame where the map
// can (ShortHelpAppender).
func AppendShortHelp(dst []key.Binding, keys help.KeyMap) []key.Binding {
	if a, ok := keys.(ShortHelpAppender); ok {
		return a.AppendShortHelp(dst)
	}
	return append(dst, keys.ShortHelp()...)
}
