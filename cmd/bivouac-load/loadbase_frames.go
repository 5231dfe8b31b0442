package main

import (
	"context"
	"io"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// An on-demand renderer, for the baseline's "ondemand" variant: the load
// harness uses it to show what Bubble Tea v1's standard renderer costs an
// idle server. That renderer wakes every program 60 times a second
// (standardRenderer.listen on a time.Ticker) whether or not anything
// changed; with thousands of sessions those wake-ups are the idle CPU.
//
// Here the program runs WithoutRenderer, and a wrapper model hands each
// new View to a frameWriter: one goroutine per session that sleeps on a
// one-slot channel (the newest frame wins, like the room mailboxes), and
// when woken rewrites only the lines that changed. Nothing runs while
// nothing changes, and a client that stops reading blocks only its writer.

// frameModel wraps a model so that every Update offers its View to w.
type frameModel struct {
	inner tea.Model
	w     *frameWriter
}

func (m frameModel) Init() tea.Cmd {
	m.w.offer(m.inner.View())
	return m.inner.Init()
}

func (m frameModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	inner, cmd := m.inner.Update(msg)
	m.inner = inner
	m.w.offer(inner.View())
	return m, cmd
}

// View is what the (absent) standard renderer would draw: nothing; the
// frame went to the writer in Update.
func (m frameModel) View() string { return "" }

// frameWriter draws frames on an alt screen, line by line.
type frameWriter struct {
	out    io.Writer
	frames chan string
	done   <-chan struct{}
}

// newFrameWriter starts the session's writer; it stops when ctx ends.
func newFrameWriter(ctx context.Context, out io.Writer) *frameWriter {
	w := &frameWriter{out: out, frames: make(chan string, 1), done: ctx.Done()}
	go w.run()
	return w
}

// offer queues a frame, replacing one not yet drawn. Never blocks.
func (w *frameWriter) offer(frame string) {
	for {
		select {
		case w.frames <- frame:
			return
		default:
		}
		select {
		case <-w.frames:
		default:
		}
	}
}

func (w *frameWriter) run() {
	// Alt screen, cursor hidden, cleared.
	_, _ = io.WriteString(w.out, "\x1b[?1049h\x1b[?25l\x1b[2J")
	var last []string
	var b strings.Builder
	for {
		select {
		case <-w.done:
			_, _ = io.WriteString(w.out, "\x1b[?25h\x1b[?1049l")
			return
		case f := <-w.frames:
			lines := strings.Split(f, "\n")
			b.Reset()
			for i, l := range lines {
				if i < len(last) && last[i] == l {
					continue
				}
				b.WriteString("\x1b[" + strconv.Itoa(i+1) + ";1H" + l + "\x1b[K")
			}
			if len(lines) < len(last) {
				b.WriteString("\x1b[" + strconv.Itoa(len(lines)+1) + ";1H\x1b[J")
			}
			last = lines
			if b.Len() > 0 {
				_, _ = io.WriteString(w.out, b.String())
			}
		}
	}
}
