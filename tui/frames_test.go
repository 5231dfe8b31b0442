package tui

import (
	"context"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"bivouac/table"
	"bivouac/tui/uikit"

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

// A screen's timer that comes before its time draws no frame; one that is
// due does.
func TestEarlyTickDrawsNothing(t *testing.T) {
	m := newRoot(testApp(t), Session{Ctx: t.Context(), Player: table.Player{ID: "k1", Name: "Anna"}}, uikit.New(nil))
	f := newFramed(m, newFrameWriter(t.Context(), make(writes, 16), false))
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

// brokenPage panics when drawn.
type brokenPage struct{ *lobbyPage }

func (brokenPage) view(*root) string { panic("a bug in a page") }

// A page that panics while a drawer draws it ends its own session only:
// the panic comes back to the program, which quits with the terminal
// given back (the goodbye on the normal screen), and the log has the
// drawer's stack. The server, and the drawer, go on.
func TestAPanicWhileDrawingEndsTheSessionAlone(t *testing.T) {
	a := testApp(t)
	var log strings.Builder
	a.Log = slog.New(slog.NewTextHandler(&log, nil))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	m := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "k1", Name: "Anna"}}, uikit.New(nil))
	out := make(writes, 16)
	f := newFramed(m, newFrameWriter(ctx, out, false))
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if first := out.next(t); !strings.Contains(first, enterAlt) {
		t.Fatalf("first write %q", first)
	}
	m.page = brokenPage{m.lobby}
	f.w.drawnAt = time.Time{} // past the least gap between frames: drawn at once
	_, cmd := f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if cmd == nil {
		t.Fatal("the session went on after a panic")
	}
	if _, quit := cmd().(tea.QuitMsg); !quit {
		t.Fatal("the session did not quit after a panic")
	}
	if bye := out.next(t); !strings.Contains(bye, leaveAlt) {
		t.Errorf("after the panic the writer wrote %q, want the alternate screen left", bye)
	}
	if !strings.Contains(log.String(), "a bug in a page (while drawing)") || !strings.Contains(log.String(), "drawJob") {
		t.Errorf("the log lacks the panic or the drawer's stack:\n%s", log.String())
	}
	// Another session draws on as before.
	other := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "k2", Name: "Bob"}}, uikit.New(nil))
	out2 := make(writes, 16)
	newFramed(other, newFrameWriter(ctx, out2, false)).Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := out2.next(t); !strings.Contains(got, enterAlt) {
		t.Errorf("another session's first frame: %q", got)
	}
}

// A frame put off by the least gap between frames comes by the session's
// one gap timer (no command, no goroutine per frame): the drawMsg is sent
// to the program once the gap has passed, and the frame is drawn then.
func TestAPutOffFrameComesByTheGapTimer(t *testing.T) {
	m := newRoot(testApp(t), Session{Ctx: t.Context(), Player: table.Player{ID: "k1", Name: "Anna"}}, uikit.New(nil))
	out := make(writes, 16)
	f := newFramed(m, newFrameWriter(t.Context(), out, false))
	sent := make(chan tea.Msg, 4)
	f.send = func(msg tea.Msg) { sent <- msg }
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	out.next(t)
	for range 3 { // within the gap: put off, and only once (three ? leave the help open)
		if _, cmd := f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")}); cmd != nil {
			t.Fatal("a put-off frame came by a command, not the gap timer")
		}
		if !f.w.drawDue {
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
	if f.w.drawDue {
		t.Error("the put-off frame was not drawn when its message came")
	}
	if got := out.next(t); !strings.Contains(got, "Help") && !strings.Contains(got, "help") {
		t.Errorf("the put-off frame did not show the help: %q", got)
	}
	select {
	case <-sent:
		t.Error("keys within the gap sent more than one frame")
	case <-time.After(50 * time.Millisecond):
	}
}

// A move's key draws no frame of its own: the frame waits for the table's
// answer and shows the move taken. Only when no answer comes within
// answerGrace is the move shown as sent first.
func TestAMoveIsDrawnWithTheTablesAnswer(t *testing.T) {
	a := testApp(t)
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n")
	alice.keys("enter")
	code := codeRe.FindStringSubmatch(alice.pump(`Table [A-Z0-9]{4}`))[1]
	bob := newSession(t, a, "fp-bob", "bob")
	bob.send(joinMsg{code: code})
	bob.pump(`bob \(you\)`)
	alice.pump(`bob  ● here`)
	alice.keys("s")
	alice.pump(`flips: 0`)

	out := make(writes, 16)
	f := newFramed(alice.m, newFrameWriter(t.Context(), out, false))
	timer := make(chan tea.Msg, 4)
	f.send = func(msg tea.Msg) { timer <- msg }
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	out.next(t)
	noWrite := func(why string) {
		t.Helper()
		select {
		case got := <-out:
			t.Fatalf("%s: a frame was written: %q", why, got)
		case <-time.After(10 * time.Millisecond):
		}
	}
	answer := func() {
		t.Helper()
		select {
		case u := <-alice.m.box.C():
			f.Update(updateArrived{u})
		case <-time.After(5 * time.Second):
			t.Fatal("the table never answered")
		}
	}
	drawDue := func() {
		t.Helper()
		select {
		case msg := <-timer:
			f.Update(msg)
		case <-time.After(5 * time.Second):
			t.Fatal("no frame came by the timer")
		}
	}

	for drained := false; !drained; { // the table's news from before the game
		select {
		case u := <-alice.m.box.C():
			f.Update(updateArrived{u})
		case <-time.After(50 * time.Millisecond):
			drained = true
		}
	}
	for len(out) > 0 {
		<-out
	}

	// The answer comes within the grace: one frame, with the move taken.
	time.Sleep(minFrameGap)
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	noWrite("the flip's key")
	answer()
	if got := out.next(t); !strings.Contains(got, "flips: 1") {
		t.Fatalf("the answer's frame: %q", got)
	}
	if f.awaiting || f.w.drawDue {
		t.Error("the frame after the answer is still put off")
	}

	bob.pump(`flips: 1`)
	bob.keys("f")
	answer() // bob's flip: drawn at once, or after the gap
	if f.w.drawDue {
		drawDue()
	}
	if got := out.next(t); !strings.Contains(got, "flips: 2") {
		t.Fatalf("bob's flip: %q", got)
	}

	// No answer within the grace: the frame comes by the timer, then the
	// answer's.
	time.Sleep(minFrameGap)
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	noWrite("the last flip's key")
	drawDue()
	if f.awaiting {
		t.Error("still waiting for the answer after the grace")
	}
	answer()
	if f.w.drawDue {
		drawDue()
	}
	for got := ""; !strings.Contains(got, "over: true"); {
		got = out.next(t)
	}
}
