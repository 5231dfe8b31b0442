package uikit

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Ink is a text style worked out once: the escape codes lipgloss puts
// around one line of text under that style. Render is then two string
// concatenations instead of lipgloss's layout pass (width, margins,
// borders, per-line styling), which was half the server's CPU while 400
// tables played. Text that needs the layout pass (line breaks, tabs) still
// goes through the style, so the output is the same either way.
//
// Ink is for the theme's character styles (colour, bold, reverse). Styles
// with width, padding or borders stay lipgloss.Styles (Theme.Box).
type Ink struct {
	style     lipgloss.Style
	pre, post string
	fast      bool
}

// inkProbe is a private-use rune: no style changes it and no text of ours
// holds it.
const inkProbe = "\uE000"

// NewInk works out st's escape codes.
func NewInk(st lipgloss.Style) Ink {
	k := Ink{style: st}
	k.pre, k.post, k.fast = strings.Cut(st.Render(inkProbe), inkProbe)
	return k
}

// Render styles s as st.Render(s) would.
func (k Ink) Render(s string) string {
	if !k.fast || strings.ContainsAny(s, "\n\r\t") {
		return k.style.Render(s)
	}
	if k.pre == "" && k.post == "" {
		return s
	}
	return k.pre + s + k.post
}

// Style is the lipgloss style behind the ink, for layout (Width, Padding).
func (k Ink) Style() lipgloss.Style { return k.style }
