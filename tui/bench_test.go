package tui

import (
	"context"
	"io"
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// BenchmarkHelpKey is what the load harness's keypress probe costs the
// server: in the lobby at 80×24 in 256 colours, ? opens the help and the
// next ? closes it, each drawing the whole screen as a session does (its
// lines, for the frame writer).
func BenchmarkHelpKey(b *testing.B) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newRoot(testApp(b), Session{Ctx: ctx, Player: table.Player{ID: "k1", Name: "Anna"}}, uikit.New(r))
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	help := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'?'}}
	b.ReportAllocs()
	for b.Loop() {
		m.Update(help)
		_ = m.Lines()
	}
}
