package uikit

import (
	"fmt"
	"strings"
	"unicode"

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
	msg := fmt.Sprintf("window too small: need %d×%d, have %d×%d", minW, minH, w, h+reserved)
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
