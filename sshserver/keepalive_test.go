package sshserver

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// freezableProxy forwards one TCP connection to target; freeze stops
// passing the client's bytes on, as if the client had vanished without
// closing. serverClosed is closed when the server ends the connection.
type freezableProxy struct {
	addr         string
	freeze       func()
	serverClosed chan struct{}
}

func newProxy(t *testing.T, target string) *freezableProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	p := &freezableProxy{addr: l.Addr().String(), serverClosed: make(chan struct{})}
	frozen := make(chan struct{})
	var once sync.Once
	p.freeze = func() { once.Do(func() { close(frozen) }) }
	go func() {
		client, err := l.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", target)
		if err != nil {
			client.Close()
			return
		}
		t.Cleanup(func() { client.Close(); server.Close() })
		go func() { // server → client, until the server closes
			_, _ = io.Copy(client, server)
			close(p.serverClosed)
		}()
		buf := make([]byte, 32<<10) // client → server, until frozen
		for {
			n, err := client.Read(buf)
			select {
			case <-frozen:
				return
			default:
			}
			if n > 0 {
				if _, werr := server.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return p
}

func TestKeepAliveDropsVanishedClient(t *testing.T) {
	srv := start(t, Config{KeepAliveInterval: 30 * time.Millisecond, KeepAliveCountMax: 2})
	proxy := newProxy(t, srv.addr)
	c := sshtest.Dial(t, proxy.addr)
	c.ExpectScreen(t, `who SHA256`, wait)

	// A live client answers: several intervals pass and it stays.
	live := sshtest.Dial(t, srv.addr)
	live.ExpectScreen(t, `who SHA256`, wait)

	proxy.freeze()
	select {
	case <-proxy.serverClosed:
	case <-time.After(wait):
		t.Fatal("server kept a client that stopped answering")
	}
	if !strings.Contains(srv.logs.String(), "client stopped answering keepalives") {
		t.Error("drop not logged")
	}
	live.Resize(81, 24)
	live.ExpectScreen(t, `size 81x24`, wait)
}

// The server asks only a client it has not heard from for an interval, as
// OpenSSH's ClientAliveInterval does: a client that keeps talking (here with
// its own keepalives, as ssh -o ServerAliveInterval does) is never asked;
// once it falls silent it is asked again, every interval.
func TestKeepAliveAsksOnlyASilentClient(t *testing.T) {
	const every = 100 * time.Millisecond
	srv := start(t, Config{KeepAliveInterval: every, KeepAliveCountMax: 3})
	raw, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	cc := &gossh.ClientConfig{User: "talker", Auth: []gossh.AuthMethod{gossh.PublicKeys(sshtest.NewKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: wait}
	conn, chans, reqs, err := gossh.NewClientConn(raw, srv.addr, cc)
	if err != nil {
		t.Fatal(err)
	}
	client := gossh.NewClient(conn, chans, nil)
	defer client.Close()
	var mu sync.Mutex
	asked := 0
	go func() {
		for req := range reqs {
			if req.Type == "keepalive@openssh.com" {
				mu.Lock()
				asked++
				mu.Unlock()
			}
			if req.WantReply {
				_ = req.Reply(false, nil) // as OpenSSH answers: any answer is one
			}
		}
	}()
	count := func() int { mu.Lock(); defer mu.Unlock(); return asked }
	sess, err := client.NewSession() // a session, so the connection is kept
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}

	talking := time.Now()
	for time.Since(talking) < 8*every {
		if _, _, err := client.SendRequest("keepalive@openssh.com", true, nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(every / 10)
	}
	// One request may slip in if the machine stalled this loop past an
	// interval; one at every interval would be eight.
	if n := count(); n > 1 {
		t.Fatalf("the server asked a talking client %d times in 8 intervals", n)
	}
	before := count()
	clocktest.CheckFor(t, wait, every/4, func() error {
		if n := count() - before; n < 3 {
			return fmt.Errorf("a silent client was asked %d times", n)
		}
		return nil
	})
}

func TestConnectionWithoutSessionIsClosed(t *testing.T) {
	srv := startTuned(t, Config{KeepAliveInterval: 20 * time.Millisecond},
		func(s *Server) { s.noSessionTimeout = 100 * time.Millisecond })
	c := sshtest.Dial(t, srv.addr) // a session: stays
	c.ExpectScreen(t, `who SHA256`, wait)

	cc := &gossh.ClientConfig{User: "idle", Auth: []gossh.AuthMethod{gossh.PublicKeys(sshtest.NewKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: wait}
	bare, err := gossh.Dial("tcp", srv.addr, cc) // no session, like ssh -N
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	closed := make(chan error, 1)
	go func() { closed <- bare.Wait() }()
	select {
	case <-closed:
	case <-time.After(wait):
		t.Fatal("a connection without a session was kept")
	}
	c.Resize(70, 20)
	c.ExpectScreen(t, `size 70x20`, wait)
}

func TestWindowChangeBeforeShellDoesNotWedgeTheSession(t *testing.T) {
	srv := start(t, Config{})
	c := sshtest.Dial(t, srv.addr, sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	c.Wait(t, wait)

	s, err := c.Conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := s.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.WindowChange(30+i, 100+i); err != nil {
			t.Fatal(err)
		}
	}
	started := make(chan error, 1)
	go func() { started <- s.Shell() }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(wait):
		t.Fatal("shell request never answered: the session's request loop is stuck")
	}
	buf := make([]byte, 4096)
	var got []byte
	for !strings.Contains(string(got), "who SHA256") {
		n, err := out.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("output ended: %q", got)
		}
	}
}

func TestConcurrentSessionsOnOneConnection(t *testing.T) {
	srv := start(t, Config{MaxChannelsPerConn: 4})
	key := sshtest.NewKey(t)
	c := sshtest.Dial(t, srv.addr, sshtest.WithKey(key), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	c.Wait(t, wait)
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := c.Conn.NewSession()
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			cmd := "rooms"
			if i == 2 {
				cmd = "" // no command, no PTY: refused with the hint
			}
			out, err := s.CombinedOutput(cmd)
			if i < 2 && (err != nil || !strings.Contains(string(out), sshtest.Fingerprint(key))) {
				errs <- fmt.Errorf("session %d: %q %v", i, out, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestKeepAliveRoundsFallOnTheBeat(t *testing.T) {
	for _, d := range []time.Duration{30 * time.Second, 1500 * time.Millisecond, 20 * time.Millisecond} {
		beat := min(keepAliveBeat, d)
		for range 20 {
			wait := onKeepAliveBeat(d)
			at := time.Now().Add(wait)
			if wait < d-time.Millisecond || wait > d+beat {
				t.Fatalf("interval %v: next round in %v, want %v to %v", d, wait, d, d+beat)
			}
			if off := at.Sub(at.Round(beat)).Abs(); off > 5*time.Millisecond && beat >= time.Second {
				t.Fatalf("interval %v: round at %v is %v off the beat", d, at, off)
			}
		}
	}
}
