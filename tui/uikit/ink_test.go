package uikit

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Ink must print exactly what its lipgloss style prints, in every colour
// profile, for one-line text and for the text it hands back to lipgloss.
func TestInkRendersAsItsStyle(t *testing.T) {
	texts := []string{"", "x", "No Man's Land", "  padded  ", "wide 漢字 ●○", "two\nlines", "tab\there", "\x1b[1mstyled\x1b[0m inside"}
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
		r := renderer(p)
		styles := map[string]lipgloss.Style{
			"plain":   r.NewStyle(),
			"bold":    r.NewStyle().Bold(true),
			"fg":      r.NewStyle().Foreground(lipgloss.Color("#FF6B6B")),
			"fg+bg":   r.NewStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("#B00020")),
			"reverse": r.NewStyle().Bold(true).Reverse(true),
		}
		for name, st := range styles {
			k := NewInk(st)
			for _, s := range texts {
				if got, want := k.Render(s), st.Render(s); got != want {
					t.Errorf("profile %v, %s, %q: ink %q, lipgloss %q", p, name, s, got, want)
				}
			}
		}
	}
}

func BenchmarkInkRender(b *testing.B) {
	st := renderer(termenv.ANSI256).NewStyle().Bold(true).Foreground(lipgloss.Color("#FF6B6B"))
	k := NewInk(st)
	b.Run("lipgloss", func(b *testing.B) {
		for b.Loop() {
			_ = st.Render("No Man's Land")
		}
	})
	b.Run("ink", func(b *testing.B) {
		for b.Loop() {
			_ = k.Render("No Man's Land")
		}
	})
}
