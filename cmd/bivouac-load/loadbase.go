package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/charmbracelet/wish/activeterm"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/charmbracelet/wish/logging"
	"github.com/muesli/termenv"
)

// The baseline the load harness compares Bivouac with: the smallest wish +
// Bubble Tea server that does what a Bivouac session does at its core
// (public-key login, emulated PTY, a per-session lipgloss renderer from
// MakeRenderer, an alt-screen program that redraws on a key), and nothing
// else: no rooms, no store, no keepalives, no lobby.

// baselineModel counts key presses.
type baselineModel struct {
	n     int
	title lipgloss.Style
	muted lipgloss.Style
	w, h  int
}

func (m baselineModel) Init() tea.Cmd { return nil }

func (m baselineModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "ctrl+c":
			return m, tea.Quit
		case "+", " ":
			m.n++
		}
	}
	return m, nil
}

func (m baselineModel) View() string {
	var b strings.Builder
	b.WriteString(m.title.Render("Bivouac load baseline") + "\n\n")
	fmt.Fprintf(&b, "count: %d\n\n", m.n)
	b.WriteString(m.muted.Render("+ count • q quit"))
	return b.String()
}

// baselineCount is the text the baseline shows after n presses.
func baselineCount(n int) string { return fmt.Sprintf("count: %d", n) }

// runBaselineServer serves the baseline on addr until ctx ends, printing
// "listening on ADDR" like serve does.
//
// With ondemand the program runs without Bubble Tea's standard renderer and
// draws through a frameWriter (loadbase_frames.go) instead.
func runBaselineServer(ctx context.Context, addr, dataDir string, ondemand bool, stdout, stderr io.Writer) error {
	handler := func(s ssh.Session) *tea.Program {
		r := bm.MakeRenderer(s)
		m := baselineModel{
			title: r.NewStyle().Bold(true).Foreground(lipgloss.Color("6")),
			muted: r.NewStyle().Faint(true),
		}
		if ondemand {
			fm := frameModel{inner: m, w: newFrameWriter(s.Context(), s)}
			opts := append(bm.MakeOptions(s), tea.WithoutRenderer(), tea.WithContext(s.Context()))
			return tea.NewProgram(fm, opts...)
		}
		opts := append(bm.MakeOptions(s), tea.WithAltScreen(), tea.WithContext(s.Context()))
		return tea.NewProgram(m, opts...)
	}
	srv, err := wish.NewServer(
		wish.WithAddress(addr),
		wish.WithHostKeyPath(filepath.Join(dataDir, "baseline_ed25519")),
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithIdleTimeout(30*time.Minute),
		wish.WithMaxTimeout(12*time.Hour),
		ssh.EmulatePty(),
		wish.WithMiddleware(
			bm.MiddlewareWithProgramHandler(handler, termenv.Ascii),
			activeterm.Middleware(),
			logging.Middleware(),
		),
	)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Baseline is listening on %s\n", l.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return nil
}
