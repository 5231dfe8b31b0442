package sshserver

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"bivouac/sshserver/sshtest"

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
