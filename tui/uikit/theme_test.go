package uikit

import (
	"io"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func renderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true)
	return r
}

func TestThemeAsciiIsPlainText(t *testing.T) {
	th := New(renderer(termenv.Ascii))
	if !th.NoColor {
		t.Fatal("Ascii renderer: NoColor = false")
	}
	for name, s := range map[string]Ink{
		"Title": th.Title, "Warning": th.Warning, "Notice": th.Notice, "Selected": th.Selected,
	} {
		if out := s.Render("x"); out != "x" {
			t.Errorf("%s under Ascii = %q, want plain", name, out)
		}
	}
}

func TestNewHelpUsesThemeStyles(t *testing.T) {
	th := New(renderer(termenv.Ascii))
	h := th.NewHelp(80)
	k := key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play"))
	off := key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "withdraw"), key.WithDisabled())
	got := h.ShortHelpView([]key.Binding{k, off})
	if got != "p play" {
		t.Errorf("help = %q, want %q (disabled bindings left out, no escapes)", got, "p play")
	}
}
