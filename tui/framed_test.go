package tui

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/frames"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// The terminal's alternate screen, entered for the first frame and left
// for the goodbye.
const (
	enterAlt = "\x1b[?1049h"
	leaveAlt = "\x1b[?1049l"
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
	f := frames.New(ctx, m, out, false)
	f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if first := out.next(t); !strings.Contains(first, enterAlt) {
		t.Fatalf("first write %q", first)
	}
	m.page = brokenPage{m.lobby}
	_, cmd := f.Update(tea.WindowSizeMsg{Width: 80, Height: 24}) // drawn at once, however soon
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
	frames.New(ctx, other, out2, false).Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := out2.next(t); !strings.Contains(got, enterAlt) {
		t.Errorf("another session's first frame: %q", got)
	}
}

// A move's key draws no frame of its own: the frame waits for the table's
// answer and shows the move taken. Only when no answer comes within
// the grace (tui/frames) is the move shown as sent first.
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
	f := frames.New(t.Context(), alice.m, out, false)
	timer := make(chan tea.Msg, 4)
	f.SendWith(func(msg tea.Msg) { timer <- msg })
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
	time.Sleep(frames.MinGap)
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	noWrite("the flip's key")
	answer()
	if got := out.next(t); !strings.Contains(got, "flips: 1") {
		t.Fatalf("the answer's frame: %q", got)
	}
	if f.Pending() {
		t.Error("the frame after the answer is still put off")
	}

	// Bob's flip: drawn at once, or after the gap. His key's command may
	// reach the room late on a busy machine, and news that changes
	// nothing on alice's screen may come first, so read on until it shows.
	bob.pump(`flips: 1`)
	bob.keys("f")
	for deadline := time.After(5 * time.Second); ; {
		select {
		case u := <-alice.m.box.C():
			f.Update(updateArrived{u})
			continue
		case msg := <-timer:
			f.Update(msg)
			continue
		case got := <-out:
			if !strings.Contains(got, "flips: 2") {
				continue
			}
		case <-deadline:
			t.Fatal("bob's flip was never drawn on alice's screen")
		}
		break
	}

	// No answer within the grace: the frame comes by the timer, then the
	// answer's.
	time.Sleep(frames.MinGap)
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	noWrite("the last flip's key")
	drawDue()
	if f.Pending() {
		t.Error("still waiting for the answer after the grace")
	}
	answer()
	if f.Pending() {
		drawDue()
	}
	for got := ""; !strings.Contains(got, "over: true"); {
		got = out.next(t)
	}
}
