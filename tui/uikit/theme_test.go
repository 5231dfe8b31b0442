package uikit

import (
	"io"
	"strings"
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
	for i := range th.Threat {
		got := th.ThreatTag(i)
		if strings.Contains(got, "\x1b") {
			t.Errorf("threat %d: escape codes under Ascii: %q", i, got)
		}
		if got != th.ThreatMark[i] {
			t.Errorf("threat %d: tag %q, want mark %q", i, got, th.ThreatMark[i])
		}
	}
	for name, s := range map[string]Ink{
		"Title": th.Title, "Warning": th.Warning, "Notice": th.Notice, "Selected": th.Selected,
	} {
		if out := s.Render("x"); out != "x" {
			t.Errorf("%s under Ascii = %q, want plain", name, out)
		}
	}
}

func TestThreatMarksAreDistinct(t *testing.T) {
	th := New(nil)
	seen := map[string]bool{}
	for i, m := range th.ThreatMark {
		if m == "" || seen[strings.ToLower(m)] {
			t.Errorf("threat %d: mark %q empty or repeated", i, m)
		}
		seen[strings.ToLower(m)] = true
	}
	if th.ThreatTag(-1) != "??" || th.ThreatTag(6) != "??" {
		t.Error("out-of-range threat should render ??")
	}
}

func TestThreatColoursAreDistinct(t *testing.T) {
	th := New(renderer(termenv.TrueColor))
	if th.NoColor {
		t.Fatal("TrueColor renderer: NoColor = true")
	}
	seen := map[string]int{}
	for i := range th.Threat {
		out := th.Threat[i].Render("X")
		if !strings.Contains(out, "\x1b[") {
			t.Fatalf("threat %d: no colour in %q", i, out)
		}
		if j, dup := seen[out]; dup {
			t.Errorf("threats %d and %d render the same: %q", j, i, out)
		}
		seen[out] = i
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
