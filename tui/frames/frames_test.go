package frames

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// writes hands each Write to the test.
type writes chan string

func (w writes) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

func (w writes) next(t *testing.T) string {
	t.Helper()
	select {
	case s := <-w:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no write")
		return ""
	}
}

// The frame writer rewrites only the lines that changed, clears what a
// shorter frame no longer covers, and starts over on a redraw.
func TestFrameWriterRewritesChangedLines(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(writes, 16)
	w := newFrameWriter(ctx, out, false)
	line := func(row int, s string) string {
		return "\x1b[" + string(rune('0'+row)) + ";1H\x1b[2K" + s + "\x1b[0m"
	}
	steps := []struct {
		f    frame
		want string
	}{
		{frame{lines: strings.Split("a\nb\nc", "\n")}, enterAlt + line(1, "a") + line(2, "b") + line(3, "c")},
		{frame{lines: strings.Split("a\nB\nc", "\n")}, line(2, "B")},
		{frame{lines: strings.Split("a\nB", "\n")}, "\x1b[3;1H\x1b[J"},
		{frame{lines: strings.Split("x\nB\nc\nd", "\n")}, line(1, "x") + line(3, "c") + line(4, "d")},
		{frame{lines: strings.Split("x\nB", "\n"), redraw: true, height: 2}, "\x1b[2J" + line(1, "x") + line(2, "B")},
	}
	for i, s := range steps {
		w.offer(s.f)
		if got := out.next(t); got != s.want {
			t.Errorf("frame %d %q: wrote %q, want %q", i, s.f.lines, got, s.want)
		}
	}
	cancel()
	if got := out.next(t); !strings.Contains(got, leaveAlt) {
		t.Errorf("on close wrote %q, want to leave the alternate screen", got)
	}
}

// A session's writer has no goroutine while nothing is to be drawn, and
// its goodbye ends the alternate screen with the words on the normal one.
func TestFrameWriterIdlesWithoutAGoroutineAndSaysGoodbye(t *testing.T) {
	out := make(writes, 16)
	w := newFrameWriter(t.Context(), out, false)
	w.offer(frame{lines: strings.Split("a", "\n")})
	out.next(t)
	w.mu.Lock()
	for w.writing { // the writer ends as soon as it has caught up
		w.mu.Unlock()
		runtime.Gosched()
		w.mu.Lock()
	}
	kept := w.pending.lines
	w.mu.Unlock()
	if kept != nil { // an idle session keeps no screen: only its lines' hashes
		t.Errorf("the writer kept the frame it drew: %q", kept)
	}
	w.finish("bye\nnow")
	if got, want := out.next(t), leaveAlt+"bye\r\nnow\r\n"; got != want {
		t.Errorf("goodbye wrote %q, want %q", got, want)
	}
	w.offer(frame{lines: strings.Split("late", "\n")})
	select {
	case got := <-out:
		t.Errorf("a frame after the goodbye was written: %q", got)
	default:
	}
}

// screen is a Screen for the tests: a line per key it was given.
type screen struct {
	lines   []string
	panics  bool   // drawing it panics
	crashed any    // what Crashed was told
	stack   []byte //
}

func (s *screen) Init() tea.Cmd { return nil }

func (s *screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		s.lines = append(s.lines, "key "+k.String())
	}
	return nil, nil
}

func (s *screen) Lines() []string {
	if s.panics {
		panic("a bug in a page")
	}
	return slices.Clone(s.lines)
}

func (s *screen) Sent() bool          { return false }
func (s *screen) Answer(tea.Msg) bool { return false }
func (s *screen) Goodbye() string     { return "" }
func (s *screen) Crashed(p any, stack []byte) string {
	s.crashed, s.stack = p, stack
	return "bye"
}

// A screen's timer that comes before its time draws no frame; one that is
// due does.
func TestEarlyTickDrawsNothing(t *testing.T) {
	f := New(t.Context(), &screen{}, make(writes, 16), false)
	t0 := time.Now()
	var ticks uikit.Ticks
	ticks.At(t0, t0.Add(time.Second))
	early, _ := ticks.Next()
	ticks.At(t0, t0.Add(3*time.Second)) // a later wish: the 1 s timer comes early
	f.Update(early)
	if !f.w.drawnAt.IsZero() || f.w.drawDue {
		t.Error("an early tick drew a frame")
	}
	ticks.Fired(early)
	ticks.At(t0, t0.Add(3*time.Second))
	due, _ := ticks.Next()
	f.Update(due)
	if f.w.drawnAt.IsZero() {
		t.Error("a due tick drew no frame")
	}
}

// A screen that panics while a drawer draws it ends its own session only:
// the panic comes back to the program, which quits with the terminal
// given back (the goodbye on the normal screen), and the screen is told
// of it with the drawer's stack. The drawers go on.
func TestAPanicWhileDrawingEndsTheSessionAlone(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := &screen{}
	out := make(writes, 16)
	f := New(ctx, s, out, false)
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if first := out.next(t); !strings.Contains(first, enterAlt) {
		t.Fatalf("first write %q", first)
	}
	s.panics = true
	f.w.drawnAt = time.Time{} // past the least gap between frames: drawn at once
	_, cmd := f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if cmd == nil {
		t.Fatal("the session went on after a panic")
	}
	if _, quit := cmd().(tea.QuitMsg); !quit {
		t.Fatal("the session did not quit after a panic")
	}
	if bye, want := out.next(t), leaveAlt+"bye\r\n"; bye != want {
		t.Errorf("after the panic the writer wrote %q, want %q", bye, want)
	}
	if p := fmt.Sprint(s.crashed); !strings.Contains(p, "a bug in a page (while drawing)") || !strings.Contains(p, "drawJob") {
		t.Errorf("the screen was not told of the panic with the drawer's stack: %s", p)
	}
	// Another session draws on as before.
	out2 := make(writes, 16)
	New(ctx, &screen{}, out2, false).Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := out2.next(t); !strings.Contains(got, enterAlt) {
		t.Errorf("another session's first frame: %q", got)
	}
}

// With the program's Send (as every session has it), the program does not
// wait for the drawer after an Update: the next Update does, before the
// screen takes the message (the race detector checks that the two never
// touch the screen at once). A drawer's panic then wakes the program with
// a message of its own, which ends the session as before.
func TestTheNextUpdateWaitsForTheDrawer(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := &screen{}
	out := make(writes, 64)
	f := New(ctx, s, out, false)
	sent := make(chan tea.Msg, 4)
	f.SendWith(func(msg tea.Msg) { sent <- msg })
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	out.next(t)
	for _, k := range "abcdefgh" { // each past the gap: drawn at once, the screen changed under it
		f.w.drawnAt = time.Time{}
		f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{k}})
	}
	f.settle()
	if got := s.Lines(); len(got) != 8 {
		t.Fatalf("the screen took %d keys, want 8", len(got))
	}
	s.panics = true
	f.w.drawnAt = time.Time{}
	if _, cmd := f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}); cmd != nil {
		t.Fatal("the Update that handed the frame over waited for its drawer")
	}
	var msg tea.Msg
	for msg == nil {
		select {
		case m := <-sent:
			if _, ok := m.(drawFailed); ok {
				msg = m
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the drawer's panic did not wake the program")
		}
	}
	_, cmd := f.Update(msg)
	if cmd == nil {
		t.Fatal("the session went on after a panic while drawing")
	}
	if _, quit := cmd().(tea.QuitMsg); !quit {
		t.Fatal("the session did not quit after a panic while drawing")
	}
	if p := fmt.Sprint(s.crashed); !strings.Contains(p, "a bug in a page (while drawing)") {
		t.Errorf("the screen was not told of the panic: %s", p)
	}
}

// A frame put off by the least gap between frames comes by the session's
// one gap timer (no command, no goroutine per frame): the drawMsg is sent
// to the program once the gap has passed, and the frame is drawn then.
func TestAPutOffFrameComesByTheGapTimer(t *testing.T) {
	out := make(writes, 16)
	f := New(t.Context(), &screen{}, out, false)
	sent := make(chan tea.Msg, 4)
	f.SendWith(func(msg tea.Msg) { sent <- msg })
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	out.next(t)
	for _, k := range "abc" { // within the gap: put off, and only once
		if _, cmd := f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{k}}); cmd != nil {
			t.Fatal("a put-off frame came by a command, not the gap timer")
		}
		if !f.Pending() {
			t.Fatal("the frame was drawn within the gap")
		}
	}
	select {
	case msg := <-sent:
		if _, ok := msg.(drawMsg); !ok {
			t.Fatalf("the gap timer sent %T", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the gap timer never sent the put-off frame")
	}
	f.Update(drawMsg{})
	if f.Pending() {
		t.Error("the put-off frame was not drawn when its message came")
	}
	if got := out.next(t); !strings.Contains(got, "key a") || !strings.Contains(got, "key c") {
		t.Errorf("the put-off frame did not show the keys: %q", got)
	}
	select {
	case <-sent:
		t.Error("keys within the gap sent more than one frame")
	case <-time.After(50 * time.Millisecond):
	}
}

// ringing is a screen that asks for the bell once, at its first key.
type ringing struct {
	screen
	rang, asked bool
}

func (r *ringing) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok && !r.asked {
		r.asked, r.rang = true, true
	}
	return nil, nil
}

func (r *ringing) Bell() bool {
	rang := r.rang
	r.rang = false
	return rang
}

// A screen that asks for the bell has it rung once, with the frame or
// alone when nothing else changed.
func TestTheBellRingsOnceWhenAsked(t *testing.T) {
	out := make(writes, 16)
	s := &ringing{screen: screen{lines: []string{"a"}}}
	f := newModel(s, newFrameWriter(t.Context(), out, false))
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'x'}})
	// The bell may go out alone, before its frame is ready, or with it:
	// read until the frame ("a" on its line) is out.
	got := out.next(t)
	for !strings.Contains(got, "\x1b[2Ka") {
		got += out.next(t)
	}
	if !strings.HasPrefix(got, "\a") || strings.Count(got, "\a") != 1 {
		t.Errorf("the first writes were %q, want the bell then the frame", got)
	}
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'y'}})
	select {
	case got := <-out:
		if strings.Contains(got, "\a") {
			t.Errorf("the bell rang again: %q", got)
		}
	default:
	}
	f.w.ring() // alone, with nothing to draw
	if got := out.next(t); got != "\a" {
		t.Errorf("a bell alone wrote %q", got)
	}
}
