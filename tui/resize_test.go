package tui

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
)

// sizeCounter is a program that counts the window sizes it is sent.
type sizeCounter struct {
	mu    sync.Mutex
	sizes []tea.WindowSizeMsg
}

func (c *sizeCounter) Send(msg tea.Msg) {
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		c.mu.Lock()
		c.sizes = append(c.sizes, w)
		c.mu.Unlock()
	}
}

func (c *sizeCounter) Quit() {}

func (c *sizeCounter) got() []tea.WindowSizeMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]tea.WindowSizeMsg(nil), c.sizes...)
}

// A storm of window changes reaches the program as two sizes, the first
// at once and the last when the gap has passed, and that last is the
// final size: each size redraws the whole screen, and 12 sessions sending
// 20,000 each took 1.3 of 2 cores. A size after a pause goes at once.
func TestAResizeStormIsDrawnOnceAtItsLastSize(t *testing.T) {
	a := testApp(t)
	clk := clocktest.New()
	a.Clock = clk
	sizes := make(chan ssh.Window) // a send returns once the pump has the size
	ctx, cancel := context.WithCancel(t.Context())
	m := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "k", Name: "k"}, Lang: i18n.English, Sizes: sizes}, a.Theme(nil, i18n.English, false))
	prog := &sizeCounter{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.pump(ctx, prog, m, false, nil)
	}()
	defer func() { cancel(); <-done }()

	const storm = 20000
	for i := range storm {
		sizes <- ssh.Window{Width: 80 + i%50, Height: 24 + i%20}
	}
	sizes <- ssh.Window{Width: 132, Height: 43}
	waitUntil(t, "the first size handed on", func() bool { return len(prog.got()) == 1 })
	clk.WaitTimers(t, 1)
	if got := prog.got(); len(got) != 1 {
		t.Fatalf("%d sizes reached the program within the gap, want 1", len(got))
	}
	clk.Advance(resizeGap)
	waitUntil(t, "the last size handed on", func() bool { return len(prog.got()) == 2 })
	if got := prog.got(); got[1] != (tea.WindowSizeMsg{Width: 132, Height: 43}) {
		t.Fatalf("the last size drawn is %v, want 132x43", got[1])
	}

	clk.Advance(time.Second) // a pause: the next size goes at once
	sizes <- ssh.Window{Width: 100, Height: 30}
	waitUntil(t, "a size after a pause handed on at once", func() bool { return len(prog.got()) == 3 })
	if got := prog.got(); got[2] != (tea.WindowSizeMsg{Width: 100, Height: 30}) {
		t.Fatalf("after a pause: %v", got[2])
	}
}
