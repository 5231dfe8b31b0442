package uikit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// The memo must never show a help view other than the one bubbles would
// draw for the same keys now: a key switched off, a changed description, a
// regrouping or another width is another entry.
func TestHelpMemoDrawsWhatBubblesWould(t *testing.T) {
	th := New(renderer(termenv.ANSI256))
	play := key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play"))
	off := play
	off.SetEnabled(false)
	renamed := play
	renamed.SetHelp("p", "play a card")
	wd := key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "withdraw"))
	quit := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit"))

	short := [][]key.Binding{{play, wd, quit}, {off, wd, quit}, {renamed, wd, quit}, {wd}}
	full := [][][]key.Binding{{{play, wd}, {quit}}, {{play}, {wd, quit}}, {{off, wd}, {quit}}}
	for range 2 { // the second round is served from the memo
		for _, w := range []int{80, 20} {
			for _, keys := range short {
				want := shortHelpView(th.NewHelp(w), w, keys)
				if got := th.ShortHelp(w, keys); got != want {
					t.Errorf("ShortHelp(%d) = %q, want %q", w, got, want)
				}
			}
			for _, groups := range full {
				h := th.NewHelp(w)
				h.ShowAll = true
				want := h.FullHelpView(groups)
				got := th.HelpPage(w, 24, groups, "About.\nTwo lines.")
				if !strings.Contains(got, want) || !strings.Contains(got, "Two lines.") || strings.Count(got, "\n") != 23 {
					t.Errorf("HelpPage(%d, 24) = %q, want 24 lines with %q", w, got, want)
				}
			}
		}
	}
}

func BenchmarkShortHelp(b *testing.B) {
	th := New(renderer(termenv.ANSI256))
	keys := []key.Binding{
		key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play")),
		key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "withdraw")),
		key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = th.ShortHelp(80, keys)
	}
}

// A help bar is one line whatever the keys: bubbles lets a key overflow
// the width when the ellipsis would not fit, and the bar wrapped.
func TestShortHelpNeverWiderThanTheWindow(t *testing.T) {
	th := New(renderer(termenv.ANSI256))
	bind := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	keys := []key.Binding{
		bind("←/→", "choose"), bind("enter", "discard"), bind("n", "decline"), bind("Q", "leave"),
		bind("t", "talk"), bind("L", "bot takes my seat"), bind("?", "help"),
	}
	all := ansi.Strip(th.ShortHelp(200, keys))
	for w := 1; w <= 120; w++ {
		got := ansi.Strip(th.ShortHelp(w, keys))
		if gw := lipgloss.Width(got); gw > w || strings.Contains(got, "\n") {
			t.Errorf("ShortHelp(%d) is %d cells: %q", w, gw, got)
		}
		if got != all && w >= 12 && !strings.HasSuffix(got, "…") {
			t.Errorf("ShortHelp(%d) = %q drops keys without saying so", w, got)
		}
	}
	if got := ansi.Strip(th.ShortHelp(80, keys)); !strings.HasPrefix(got, "←/→ choose") || !strings.HasSuffix(got, "…") {
		t.Errorf("ShortHelp(80) = %q", got)
	}
}

// A bar that drops keys keeps ? (which lists them all) before its
// ellipsis: the keys before ? make way for it.
func TestACutHelpBarKeepsTheHelpKey(t *testing.T) {
	th := New(renderer(termenv.ANSI256))
	bind := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	keys := []key.Binding{
		bind("u", "webhook"), bind("t", "test"), bind("x", "webhook off"), bind("d", "desktop"),
		bind("o", "quiet hours"), bind("z", "time zone"), bind("esc", "back"), bind("?", "help"),
	}
	all := ansi.Strip(th.ShortHelp(200, keys))
	for w := 16; w < lipgloss.Width(all); w++ {
		got := ansi.Strip(th.ShortHelp(w, keys))
		if gw := lipgloss.Width(got); gw > w {
			t.Errorf("ShortHelp(%d) is %d cells: %q", w, gw, got)
		}
		if !strings.HasSuffix(got, "? help …") {
			t.Errorf("ShortHelp(%d) = %q: not ? before the ellipsis", w, got)
		}
	}
	if got := ansi.Strip(th.ShortHelp(80, keys)); got != "u webhook • t test • x webhook off • d desktop • o quiet hours • ? help …" {
		t.Errorf("ShortHelp(80) = %q", got)
	}
}
