package uikit

import (
	"bivouac/game"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// Trunc cuts s (which may hold styles) to w cells, with an ellipsis.
func Trunc(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, max(w, 0), "…")
}

// Clean keeps printable text in any script, as a last guard on what players
// typed (names, chat): no controls, escapes or bidi overrides; any space
// becomes a plain space.
func Clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		if unicode.IsSpace(r) {
			return ' '
		}
		return -1
	}, s)
}

// TooSmall is what a table screen of w×h shows when it needs minW×minH;
// reserved lines below it belong to the session (its help bar), so the
// window the player has is w×(h+reserved).
func TooSmall(th *Theme, w, h, reserved, minW, minH int) string {
	msg := th.T("ui.too_small_short", game.Num("MinW", minW), game.Num("MinH", minH), game.Num("W", w), game.Num("H", h+reserved))
	w = max(w, 1)
	lines := strings.Split(ansi.Wrap(msg, w, " "), "\n")
	if h >= 1 && len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = th.Warning.Render(Trunc(l, w))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// Frame lays out a table screen of w×h cells: body's lines (asked for the
// space left), padded to the full height, then — when helpBar is set, as for
// a screen shown on its own — the help bar of keys. Without its own help bar
// the screen's window is one line taller (the session's help bar), so a
// window under minW×minH gets TooSmall instead.
func Frame(th *Theme, keys help.KeyMap, helpBar bool, w, h, minW, minH int, body func(w, h int) []string) string {
	reserved := 0 // lines the root keeps for its own help bar
	if !helpBar {
		reserved = 1
	}
	if w < minW || h+reserved < minH {
		return TooSmall(th, w, h, reserved, minW, minH)
	}
	var foot []string
	if helpBar {
		foot = append(foot, Trunc(th.ShortHelp(w, keys.ShortHelp()), w))
	}
	lines := body(w, h-len(foot))
	for len(lines) < h-len(foot) {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, foot...), "\n")
}

// FitWidth cuts every line of s to w cells. A line past the edge wraps in
// the terminal and shifts every line below it, which the frame writer,
// redrawing only changed lines, would never clean up.
func FitWidth(s string, w int) string {
	if w <= 0 || !anyWider(s, w) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Trunc(l, w)
	}
	return strings.Join(lines, "\n")
}

// anyWider reports whether a line of s is wider than w cells. A line of
// at most w bytes cannot be, which spares measuring most of them.
func anyWider(s string, w int) bool {
	for rest, more := s, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if len(l) > w && ansi.StringWidth(l) > w {
			return true
		}
	}
	return false
}

// FitHeight pads or cuts s to exactly n lines. It counts rather than
// splits: it runs on every frame.
func FitHeight(s string, n int) string {
	if n <= 0 {
		return ""
	}
	s, have := cutLines(s, n)
	if have < n {
		s += strings.Repeat("\n", n-have)
	}
	return s
}

// FitAbove is s fitted to n lines (as FitHeight) with foot on the line
// below: a page above its help bar, built in one allocation.
func FitAbove(s string, n int, foot string) string {
	if n <= 0 {
		return foot
	}
	s, have := cutLines(s, n)
	var b strings.Builder
	b.Grow(len(s) + n - have + 1 + len(foot))
	b.WriteString(s)
	for ; have < n; have++ {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(foot)
	return b.String()
}

// cutLines drops s's trailing newlines and any lines past the nth, and
// says how many lines are left.
func cutLines(s string, n int) (string, int) {
	s = strings.TrimRight(s, "\n")
	have := strings.Count(s, "\n") + 1
	for ; have > n; have-- {
		s = s[:strings.LastIndexByte(s, '\n')]
	}
	return s, have
}

// Wrap breaks plain text into lines of at most w cells, at spaces where it
// can (a word longer than w is cut).
func Wrap(s string, w int) []string {
	if w < 1 {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// Paragraphs wraps text whose paragraphs are separated by newlines (as a
// catalog holds a long text) to lines of at most w cells.
func Paragraphs(s string, w int) string {
	var out []string
	for _, p := range strings.Split(s, "\n") {
		out = append(out, Wrap(p, w)...)
	}
	return strings.Join(out, "\n")
}
