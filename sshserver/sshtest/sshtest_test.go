package sshtest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"
	gossh "golang.org/x/crypto/ssh"
)

// echoServer is a bare charmbracelet/ssh server (no sshserver) so these
// tests check the helper alone.
func echoServer(t *testing.T) string {
	return start(t, &ssh.Server{Handler: func(s ssh.Session) {
		switch s.RawCommand() {
		case "renderer":
			start := time.Now()
			r := bm.MakeRenderer(s)
			fmt.Fprintf(s, "renderer took %dms dark=%v\n", time.Since(start).Milliseconds(), r.HasDarkBackground())
			return
		case "exit 7":
			_ = s.Exit(7)
			return
		}
		_, winch, _ := s.Pty()
		go func() {
			first := true
			for w := range winch {
				if !first {
					fmt.Fprintf(s, "\r\nsize %dx%d\r\n", w.Width, w.Height)
				}
				first = false
			}
		}()
		fmt.Fprint(s, "\x1b[32mready>\x1b[0m ")
		buf := make([]byte, 64)
		for {
			n, err := s.Read(buf)
			if err != nil {
				return
			}
			in := buf[:n]
			if bytes.Contains(in, []byte("q")) {
				_ = s.Exit(5)
				return
			}
			_, _ = s.Write(bytes.ReplaceAll(bytes.ToUpper(in), []byte("\r"), []byte("\r\n")))
		}
	}})
}

// start gives srv an ed25519 host key (the default would be a slow RSA
// one) and starts it.
func start(t *testing.T, srv *ssh.Server) string {
	srv.AddHostKey(NewKey(t))
	return Start(t, srv)
}

func TestDialTypeExpectResize(t *testing.T) {
	addr := echoServer(t)
	c := Dial(t, addr, WithPTY(40, 10))
	c.Expect(t, `ready> `, 5*time.Second)
	c.Type("abc\r")
	if got := c.Expect(t, `(A.C)`, 5*time.Second); got[1] != "ABC" {
		t.Errorf("Expect groups %q", got)
	}
	c.ExpectScreen(t, `(?m)^ready> ABC$`, 5*time.Second)
	c.Resize(100, 40)
	c.Expect(t, `size 100x40`, 5*time.Second)
	if !strings.Contains(string(c.Transcript()), "\x1b[32mready>") {
		t.Errorf("transcript lacks the raw bytes: %q", c.Transcript())
	}
	c.Type("q")
	if code := c.Wait(t, 5*time.Second); code != 5 {
		t.Errorf("exit status %d, want 5", code)
	}
}

func TestCommandExitStatus(t *testing.T) {
	addr := echoServer(t)
	c := Dial(t, addr, WithoutPTY(), WithCommand("exit 7"))
	if code := c.Wait(t, 5*time.Second); code != 7 {
		t.Errorf("exit status %d, want 7", code)
	}
}

func TestTerminalQueriesAnsweredAtOnce(t *testing.T) {
	addr := echoServer(t)
	c := Dial(t, addr, WithCommand("renderer"))
	m := c.Expect(t, `renderer took (\d+)ms dark=(\w+)`, 5*time.Second)
	if ms, _ := strconv.Atoi(m[1]); ms > 500 {
		t.Errorf("MakeRenderer took %sms: the terminal queries went unanswered", m[1])
	}
	if m[2] != "true" {
		t.Errorf("dark background = %s, want true (the helper answers black)", m[2])
	}
}

func TestGuestDial(t *testing.T) {
	addr := start(t, &ssh.Server{
		Handler:                    func(s ssh.Session) { fmt.Fprintf(s, "hi %s key=%v\n", s.User(), s.PublicKey() != nil) },
		KeyboardInteractiveHandler: func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true },
	})
	c := Dial(t, addr, AsGuest(), WithUser("K7QX2M"), WithoutPTY())
	c.Expect(t, `hi K7QX2M key=false`, 5*time.Second)
}

func TestNeverReadBlocksTheServer(t *testing.T) {
	wrote := make(chan int, 1)
	addr := start(t, &ssh.Server{Handler: func(s ssh.Session) {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		total := 0
		defer func() { wrote <- total }()
		for total < 64<<20 {
			n, err := s.Write(chunk)
			total += n
			if err != nil {
				return
			}
		}
	}})
	c := Dial(t, addr, NeverRead(), WithoutPTY())
	select {
	case n := <-wrote:
		t.Fatalf("server wrote all %d bytes to a client that never reads", n)
	case <-time.After(300 * time.Millisecond): // the writer must be stuck by now
	}
	c.Close()
	if n := <-wrote; n >= 64<<20 {
		t.Fatalf("wrote %d", n)
	}
}
