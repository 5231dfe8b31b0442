package uikit

import (
	"hash/maphash"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Theme is every style one session draws with. It is built from that
// session's renderer (bm.MakeRenderer in production, an Ascii renderer in
// tests), never from lipgloss's default renderer, which describes the
// server's terminal rather than the player's.
//
// Nothing in a screen may depend on colour alone: under NO_COLOR (the
// renderer's profile is termenv.Ascii) styles render as plain text, so
// every mark that carries meaning (a game's marks, selection, warnings) is
// also a character.
type Theme struct {
	// Renderer the styles were built from; use NewStyle for one-off styles.
	Renderer *lipgloss.Renderer
	// NoColor is true when the client gets plain text (termenv.Ascii).
	NoColor bool

	Base     Ink            // ordinary text
	Title    Ink            // screen title (game name)
	Header   Ink            // section headers ("No Man's Land", "Your hand")
	Muted    Ink            // secondary text, log lines, disabled things
	Strong   Ink            // emphasis inside ordinary text
	Accent   Ink            // the player's own things, the active seat
	Selected Ink            // the cursor in a list (pair it with a text mark)
	Good     Ink            // success, available
	Warning  Ink            // danger one step ahead
	Danger   Ink            // failure, loss, refused actions
	Notice   Ink            // a prominent one-line message (why a move was refused)
	Chat     Ink            // chat lines in a log
	Rule     Ink            // horizontal rules drawn with ─
	Box      lipgloss.Style // a bordered panel (rounded border)

	// Help bar styles (see NewHelp).
	HelpKey  lipgloss.Style
	HelpDesc lipgloss.Style
	HelpSep  lipgloss.Style

	id      uint64 // tells themes apart in SharedLines keys (nextThemeID)
	dark    bool   // the renderer's background is dark (Color)
	profile termenv.Profile
	ascii   bool          // words are romanised before layout (SetASCII)
	tr      *i18n.Printer // the session's language (SetLang)
	wrapped sync.Map      // wrapKey → a catalog text wrapped to a width (Wrapped)

	help     help.Model // the template NewHelp copies
	helpMemo helpMemo   // help bars and pages already drawn (help.go)
}

// nextThemeID numbers themes: a theme's address could be reused by a later
// one with other colours, its number is not.
var nextThemeID atomic.Uint64

// New builds a theme from a session's renderer. A nil renderer means an
// Ascii renderer with no output (handy in tests).
func New(r *lipgloss.Renderer) *Theme {
	if r == nil {
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.Ascii)
	}
	st := r.NewStyle
	t := &Theme{
		Renderer: r,
		NoColor:  r.ColorProfile() == termenv.Ascii,
		id:       nextThemeID.Add(1),
		dark:     r.HasDarkBackground(),
		profile:  r.ColorProfile(),
	}
	c := t.Color
	t.Base = NewInk(st())
	t.Title = NewInk(st().Bold(true).Foreground(c("#5A3E1B", "#E8C07D")))
	t.Header = NewInk(st().Bold(true).Foreground(c("#3A5A40", "#A3C9A8")))
	t.Muted = NewInk(st().Foreground(c("#6C6C6C", "#8A8A8A")))
	t.Strong = NewInk(st().Bold(true))
	t.Accent = NewInk(st().Bold(true).Foreground(c("#005F87", "#5FD7FF")))
	t.Selected = NewInk(st().Bold(true).Reverse(true))
	t.Good = NewInk(st().Foreground(c("#2E7D32", "#8BD18B")))
	t.Warning = NewInk(st().Bold(true).Foreground(c("#9A5B00", "#FFB347")))
	t.Danger = NewInk(st().Bold(true).Foreground(c("#B00020", "#FF6B6B")))
	t.Notice = NewInk(st().Bold(true).Foreground(c("#FFFFFF", "#1C1C1C")).Background(c("#B00020", "#FF8F8F")))
	t.Chat = NewInk(st().Foreground(c("#5C4B8A", "#C7B8F5")))
	t.Rule = NewInk(st().Foreground(c("#B8B8B8", "#4E4E4E")))
	t.Box = st().Border(lipgloss.RoundedBorder()).BorderForeground(c("#B8B8B8", "#5E5E5E"))

	t.HelpKey = st().Bold(true).Foreground(c("#4A4A4A", "#C8C8C8"))
	t.HelpDesc = st().Foreground(c("#7A7A7A", "#8A8A8A"))
	t.HelpSep = st().Foreground(c("#C0C0C0", "#4A4A4A"))

	t.SetLang(i18n.English)
	t.helpMemo.seed = maphash.MakeSeed()
	t.help = help.New()
	t.help.Styles = help.Styles{
		Ellipsis:       t.HelpSep,
		ShortKey:       t.HelpKey,
		ShortDesc:      t.HelpDesc,
		ShortSeparator: t.HelpSep,
		FullKey:        t.HelpKey,
		FullDesc:       t.HelpDesc,
		FullSeparator:  t.HelpSep,
	}
	return t
}

// NewStyle is a fresh style from the session's renderer.
func (t *Theme) NewStyle() lipgloss.Style { return t.Renderer.NewStyle() }

// Color is light or darkHex (hex colours), whichever suits the renderer's
// background, resolved once for its colour profile: lipgloss would
// otherwise convert the hex value (a nearest-colour search) on every
// Render, which was ~15% of the server's CPU while tables played.
func (t *Theme) Color(light, darkHex string) lipgloss.TerminalColor {
	hex := light
	if t.dark {
		hex = darkHex
	}
	switch col := t.profile.Color(hex).(type) {
	case termenv.ANSIColor:
		return lipgloss.Color(strconv.Itoa(int(col)))
	case termenv.ANSI256Color:
		return lipgloss.Color(strconv.Itoa(int(col)))
	case termenv.RGBColor:
		return lipgloss.Color(string(col))
	}
	return lipgloss.NoColor{}
}

// NewHelp is a bubbles help model w cells wide whose styles all come from
// this theme (help.New alone would use the server's renderer). It is a
// copy of one model per theme: sessions make one when they draw instead of
// each keeping its own (about 4 KiB a session).
func (t *Theme) NewHelp(w int) help.Model {
	h := t.help
	h.Width = w
	h.Ellipsis = t.Ellipsis() // keys that do not fit are a cut too
	return h
}

// T renders a catalog key in the session's language.
func (t *Theme) T(key string, args ...game.Arg) string { return t.Text(t.printer().T(key, args...)) }

// Msg renders a message in the session's language.
func (t *Theme) Msg(m game.Msg) string { return t.Text(t.printer().Msg(m)) }

// Name is a player's name as the viewer reads it: a bot's marked in their
// language (i18n's Printer.Name).
func (t *Theme) Name(n string) string { return t.Text(t.printer().Name(n)) }

// Event is what e says, in the session's language.
func (t *Theme) Event(e *game.Event) string { return t.Text(t.printer().Event(e)) }

// Err renders an error for the player, in the session's language.
func (t *Theme) Err(err error) string { return t.Text(t.printer().Error(err)) }

// And joins parts as the session's language lists things ("a, b and c").
func (t *Theme) And(parts []string) string { return t.Text(t.printer().And(parts)) }

// Or joins alternatives ("a, b or c").
func (t *Theme) Or(parts []string) string { return t.Text(t.printer().Or(parts)) }

// Text is words the screen shows (a name, a chat line) as this theme
// writes them: romanised in ASCII mode, before they are measured and laid
// out, so a romanised name that grew longer is cut like any other.
func (t *Theme) Text(s string) string {
	if t.ascii {
		return Romanize(s)
	}
	return s
}

// SetASCII makes the theme romanise what it renders (Romanize): for a
// terminal that shows only ASCII. Set it before the theme is shared.
func (t *Theme) SetASCII(on bool) { t.ascii = on }

// ASCII: the theme romanises what it renders.
func (t *Theme) ASCII() bool { return t.ascii }

// Lang is the session's language.
func (t *Theme) Lang() i18n.Lang { return t.printer().Lang() }

// SetLang switches the session's language; screens draw in it from their
// next frame.
func (t *Theme) SetLang(l i18n.Lang) { t.tr = i18n.For(l) }

// Wrapped is the catalog text key wrapped to w cells (its paragraphs
// kept), worked out once per theme and width: help pages ask for it on
// every frame.
func (t *Theme) Wrapped(key string, w int) string {
	k := wrapKey{key, w}
	if s, ok := t.wrapped.Load(k); ok {
		return s.(string)
	}
	s := Paragraphs(t.T(key), w)
	t.wrapped.Store(k, s)
	return s
}

type wrapKey struct {
	key string
	w   int
}

// Printer is the session's printer, for code that renders on its own.
func (t *Theme) Printer() *i18n.Printer { return t.printer() }

func (t *Theme) printer() *i18n.Printer {
	if t.tr == nil {
		return i18n.For(i18n.English)
	}
	return t.tr
}
