package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
)

// waitUntil polls cond (the session's end stores from its own goroutine).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// A thousand presses of l are at most one write while they come, one after
// the pause, and the last choice is what the store holds when the session
// ends; before, every press was a committed write (5,000 presses, 95 MB).
func TestTheLanguageKeyWritesOncePerPause(t *testing.T) {
	a := testApp(t)
	clk := clocktest.New()
	a.Clock = clk
	recs := &langRecords{}
	a.Records = recs
	ctx, end := context.WithCancel(context.Background())
	defer end()
	m := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "fp-alice", Name: "alice"}, Lang: i18n.English}, a.Theme(nil, i18n.English, false))
	s := &session{t: t, m: m}
	s.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	l := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l")}
	for range 1000 {
		s.m.Update(l)                   // its command (the notice's expiry) is left: no clock runs it
		clk.Advance(langSavePause / 10) // a slow hand, but never a pause
	}
	if _, _, n := recs.saved(); n != 0 {
		t.Fatalf("%d writes while l was being pressed", n)
	}
	clk.Advance(langSavePause)
	last := s.m.th.Lang()
	if _, lang, n := recs.saved(); n != 1 || lang != last {
		t.Fatalf("after the pause: %d writes, %s stored, want 1 of %s", n, lang, last)
	}
	clk.Advance(time.Hour)
	if _, _, n := recs.saved(); n != 1 {
		t.Fatalf("a stored choice was stored again: %d writes", n)
	}

	for range 3 { // more presses, then the session ends before the pause
		s.keys("l")
	}
	last = s.m.th.Lang()
	end()
	waitUntil(t, "the choice stored at the session's end", func() bool { _, _, n := recs.saved(); return n == 2 })
	if _, lang, _ := recs.saved(); lang != last {
		t.Fatalf("stored %s at the end, want the last choice %s", lang, last)
	}
	clk.Advance(time.Hour)
	if _, _, n := recs.saved(); n != 2 {
		t.Fatalf("%d writes, want 2", n)
	}
}

// A guest's choice is never stored; a failed store is said in the lobby.
func TestTheLanguageChoiceOfAGuestIsNotStoredAndAFailureIsSaid(t *testing.T) {
	a := testApp(t)
	clk := clocktest.New()
	a.Clock = clk
	recs := &langRecords{}
	a.Records = recs
	guest := newSession(t, a, "guest-1", "guest")
	guest.m.sess.Player.Guest = true
	guest.keys("l")
	clk.Advance(langSavePause)
	if _, _, n := recs.saved(); n != 0 {
		t.Fatalf("a guest's language was stored %d times", n)
	}

	recs.err = errors.New("disk full")
	alice := newSession(t, a, "fp-alice", "alice")
	sent := make(chan tea.Msg, 1)
	alice.m.send = func(msg tea.Msg) { sent <- msg }
	alice.keys("l")
	clk.Advance(langSavePause)
	select {
	case msg := <-sent:
		alice.send(msg)
	case <-time.After(5 * time.Second):
		t.Fatal("the failure never came back to the program")
	}
	// Said in the player's words (Polish by now), never Go's English.
	if v := alice.m.View(); !strings.Contains(v, "nie udało się zapisać języka: problem na serwerze") || strings.Contains(v, "disk full") {
		t.Fatalf("the failure is not said in the player's words:\n%s", v)
	}
}
