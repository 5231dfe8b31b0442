package tui

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// Drawing without Bubble Tea's standard renderer. That renderer wakes every
// program 60 times a second on a ticker, changed or not; at 2,000 idle
// sessions those wake-ups were nearly half a core (docs/PERFORMANCE.md).
// Here the program runs WithoutRenderer: after each Update the session's
// frame goes to a frameWriter, one goroutine that sleeps on a one-slot
// channel (newest frame wins, like the room mailboxes) and rewrites only the
// lines that changed. Nothing runs while nothing changes, and a client that
// stops reading blocks only its own writer, never the program.

// framed wraps the session's root so every Update hands its View to w.
type framed struct {
	root *root
	w    *frameWriter
}

func (f framed) Init() tea.Cmd {
	f.w.offer(frame{text: f.root.View()})
	return f.root.Init()
}

// minFrameGap is the least time between two frames of one session. A key
// typed after a pause is drawn at once; keys that come faster than this
// (a held key, a burst from a script) are drawn together, once the gap has
// passed: a burst of n keys costs n Updates but about one View per gap.
const minFrameGap = 15 * time.Millisecond

// drawMsg asks for the frame put off by minFrameGap.
type drawMsg struct{}

func (f framed) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		// A bug in a screen ends this session alone, with the terminal
		// given back whole, instead of a stack trace on the player's screen.
		if p := recover(); p != nil {
			f.root.app.logger().Error("panic in a session", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			f.w.finish(f.root.th.T(internalErrorGoodbye))
			cmd = tea.Quit
		}
	}()
	if _, ok := msg.(drawMsg); ok {
		f.w.drawDue = false
	} else {
		_, cmd = f.root.Update(msg)
	}
	switch ws, resized := msg.(tea.WindowSizeMsg); {
	case resized:
		f.draw(frame{redraw: true, height: ws.Height})
	case f.root.closed != "":
		f.draw(frame{})
		f.w.finish(f.root.closed) // the program is quitting: leave the goodbye on screen
	case f.w.drawDue:
		// a frame is already on its way
	case time.Since(f.w.drawnAt) >= minFrameGap:
		f.draw(frame{})
	default:
		f.w.drawDue = true
		wait := minFrameGap - time.Since(f.w.drawnAt)
		cmd = tea.Batch(cmd, tea.Tick(wait, func(time.Time) tea.Msg { return drawMsg{} }))
	}
	return f, cmd
}

// draw hands the root's current View to the writer.
func (f framed) draw(fr frame) {
	fr.text = f.root.View()
	f.w.offer(fr)
	f.w.drawnAt = time.Now()
}

// View is empty: there is no standard renderer to draw it.
func (f framed) View() string { return "" }

type frame struct {
	text   string
	redraw bool // the window changed: clear and draw everything
	height int
}

// frameWriter draws frames on the alternate screen of one session.
type frameWriter struct {
	out    io.Writer
	frames chan frame
	final  chan string
	done   chan struct{}
	ctx    context.Context
	ascii  bool // draw every line in ASCII (Session.ASCII)

	// Read and written on the program's goroutine only (framed.Update).
	drawnAt time.Time // when the last frame was offered
	drawDue bool      // a drawMsg is on its way
}

func newFrameWriter(ctx context.Context, out io.Writer, ascii bool) *frameWriter {
	w := &frameWriter{out: out, frames: make(chan frame, 1), final: make(chan string, 1), done: make(chan struct{}), ctx: ctx, ascii: ascii}
	go w.run()
	return w
}

// offer queues a frame, replacing one not yet drawn. It never blocks. A
// pending redraw is kept when a newer frame replaces it.
func (w *frameWriter) offer(f frame) {
	for {
		select {
		case w.frames <- f:
			return
		default:
		}
		select {
		case old := <-w.frames:
			if old.redraw {
				f.redraw = true
				f.height = max(f.height, old.height)
			}
		default:
		}
	}
}

// finish leaves the alternate screen with msg printed on the normal one.
// It waits (briefly) for the writer, so the words are out before the
// session closes.
func (w *frameWriter) finish(msg string) {
	select {
	case w.final <- msg:
	default:
		return // already finishing
	}
	select {
	case <-w.done:
	case <-time.After(time.Second):
	}
}

const (
	enterAlt = "\x1b[?1049h\x1b[?25l\x1b[2J"
	leaveAlt = "\x1b[0m\x1b[?25h\x1b[?1049l" // plain attributes, cursor shown, normal screen
)

func (w *frameWriter) run() {
	defer close(w.done)
	_, _ = io.WriteString(w.out, enterAlt)
	// Kept between frames, so a frame allocates nothing: the lines of the
	// last frame and of this one (substrings of the frames, swapped each
	// time), and the bytes to write.
	var last, lines []string
	var b []byte
	for {
		select {
		case <-w.ctx.Done():
			_, _ = io.WriteString(w.out, leaveAlt)
			return
		case msg := <-w.final:
			if w.ascii {
				msg = uikit.ToASCII(msg)
			}
			_, _ = io.WriteString(w.out, leaveAlt+strings.ReplaceAll(msg, "\n", "\r\n")+"\r\n")
			return
		case f := <-w.frames:
			lines = lines[:0]
			for rest, more := f.text, true; more; {
				var l string
				l, rest, more = strings.Cut(rest, "\n")
				lines = append(lines, l)
			}
			b = b[:0]
			if f.redraw {
				b = append(b, "\x1b[2J"...)
				last = last[:0]
			}
			for i, l := range lines {
				if i < len(last) && last[i] == l {
					continue
				}
				// Erase first, then write: erasing after a full-width line
				// would take its last cell with it (the cursor waits there).
				b = append(b, "\x1b["...)
				b = strconv.AppendInt(b, int64(i+1), 10)
				b = append(b, ";1H\x1b[2K"...)
				if w.ascii {
					b = uikit.AppendASCII(b, l)
				} else {
					b = append(b, l...)
				}
				b = append(b, "\x1b[0m"...)
			}
			if len(lines) < len(last) {
				b = append(b, "\x1b["...)
				b = strconv.AppendInt(b, int64(len(lines)+1), 10)
				b = append(b, ";1H\x1b[J"...)
			}
			last, lines = lines, last
			if len(b) > 0 {
				_, _ = w.out.Write(b)
			}
		}
	}
}
