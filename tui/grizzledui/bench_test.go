package grizzledui

import (
	"io"
	"testing"

	"bivouac/table"
	"bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// BenchmarkView draws the table as a session at 80×24 in 256 colours does
// after every update: the server's main cost while tables play.
func BenchmarkView(b *testing.B) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	th := uikit.New(r)
	for _, c := range []struct {
		name string
		u    table.Update
	}{{"mid-mission", midMission()}, {"speech", speechAnswer()}, {"support", supportReveal()}} {
		b.Run(c.name, func(b *testing.B) {
			s := New(th)
			s.SetSize(80, 23) // the session keeps the last line for its help bar
			s.SetUpdate(c.u)
			b.ReportAllocs()
			for b.Loop() {
				_ = s.View()
			}
		})
	}
}
