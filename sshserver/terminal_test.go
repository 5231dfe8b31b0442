package sshserver

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

func TestParseAnswers(t *testing.T) {
	for _, c := range []struct {
		name, in string
		dark     bool
		typed    string
		done     bool
	}{
		{"black, ST", "\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?62;22c", true, "", true},
		{"white, BEL", "\x1b]11;rgb:ffff/ffff/ffff\a\x1b[?1;2c", false, "", true},
		{"light grey, 2-digit", "\x1b]11;rgb:d0/d0/d0\a\x1b[?6c", false, "", true},
		{"dark blue", "\x1b]11;rgb:0000/0000/8000\a\x1b[?6c", true, "", true},
		{"no colour answer", "\x1b[?62c", true, "", true},
		{"keys around the answers", "ab\x1b]11;rgb:ffff/ffff/ffff\ac\x1b[?62cd\x1b[A", false, "abcd\x1b[A", true},
		{"arrow key before", "\x1b[A\x1b[?62c", true, "\x1b[A", true},
		{"half an answer", "\x1b]11;rgb:ffff/ff", true, "", false},
		{"colour without attributes yet", "\x1b]11;rgb:ffff/ffff/ffff\a", false, "", false},
		{"attributes cut short", "\x1b]11;rgb:ffff/ffff/ffff\a\x1b[?6", false, "", false},
		{"another private report stays input", "\x1b[?1$y\x1b[?62c", true, "\x1b[?1$y", true},
	} {
		dark, typed, done := parseAnswers([]byte(c.in))
		if dark != c.dark || string(typed) != c.typed || done != c.done {
			t.Errorf("%s: parseAnswers(%q) = %v, %q, %v; want %v, %q, %v",
				c.name, c.in, dark, typed, done, c.dark, c.typed, c.done)
		}
	}
}

// A terminal that answers a byte at a time is still understood, and what
// the player typed around the answers reaches the program in order.
func TestAskBackgroundAnswerInPieces(t *testing.T) {
	pr, pw := io.Pipe()
	var asked bytes.Buffer
	go func() {
		for _, b := range []byte("x\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22cyz") {
			_, _ = pw.Write([]byte{b})
		}
		_ = pw.Close()
	}()
	dark, in := askBackground(pr, &asked, 5*time.Second)
	if dark {
		t.Error("white background judged dark")
	}
	if asked.String() != bgQuery {
		t.Errorf("asked %q, want %q", asked.String(), bgQuery)
	}
	rest, err := io.ReadAll(in)
	if err != nil || string(rest) != "xyz" {
		t.Errorf("input after the query = %q, %v; want %q", rest, err, "xyz")
	}
}

// A terminal that never answers costs the timeout, no more, and no key:
// the read in flight when the wait ends is handed on.
func TestAskBackgroundSilentTerminalLosesNoKey(t *testing.T) {
	pr, pw := io.Pipe()
	start := time.Now()
	dark, in := askBackground(pr, io.Discard, 50*time.Millisecond)
	if !dark {
		t.Error("no answer should mean dark")
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("waited %v", waited)
	}
	go func() {
		_, _ = pw.Write([]byte("q"))
		_, _ = pw.Write([]byte("uit"))
		_ = pw.Close()
	}()
	rest, err := io.ReadAll(in)
	if err != nil || string(rest) != "quit" {
		t.Errorf("input after a silent query = %q, %v; want %q", rest, err, "quit")
	}
}

// A client that hangs up during the query gives the program an ended input.
func TestAskBackgroundInputEnds(t *testing.T) {
	dark, in := askBackground(bytes.NewReader([]byte("k")), io.Discard, 5*time.Second)
	if !dark {
		t.Error("no answer should mean dark")
	}
	rest, err := io.ReadAll(in)
	if err != nil || string(rest) != "k" {
		t.Errorf("input = %q, %v; want %q then EOF", rest, err, "k")
	}
}

func TestEnvironLastSettingWins(t *testing.T) {
	e := environ{"TERM=vt100", "NO_COLOR=1", "TERM=xterm-256color"}
	if got := e.Getenv("TERM"); got != "xterm-256color" {
		t.Errorf("TERM = %q", got)
	}
	if got := e.Getenv("COLORTERM"); got != "" {
		t.Errorf("COLORTERM = %q", got)
	}
}

// RawOutput skips the emulated PTY's \n → \r\n rewrite for a connection's
// only session, and falls back to the session once a connection has had
// two: then the session could have come from either channel.
func TestRawOutput(t *testing.T) {
	draw := func(_ context.Context, s ssh.Session) *tea.Program {
		_, _ = io.WriteString(RawOutput(s), "raw:a\nb|")
		_, _ = io.WriteString(s, "pty:c\nd|")
		return nil
	}
	srv := start(t, Config{MaxChannelsPerConn: 4}, Deps{Programs: draw, Command: testCommand})

	c := sshtest.Dial(t, srv.addr)
	c.Expect(t, `pty:c`, wait)
	got := string(c.Transcript())
	if !strings.Contains(got, "raw:a\nb|") || !strings.Contains(got, "pty:c\r\nd|") {
		t.Errorf("only session: output %q, want raw:a\\nb| and pty:c\\r\\nd|", got)
	}

	s, err := c.Conn.NewSession() // the connection's second session
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out, _ := s.Output("")
	if !strings.Contains(string(out), "raw:a\r\nb|") {
		t.Errorf("second session: output %q, want the rewrite (raw:a\\r\\nb|)", out)
	}
}
