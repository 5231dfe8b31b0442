package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest/vterm"
)

// loadClient is one simulated player: an SSH connection with one PTY
// session, a terminal model of its screen, and the arrival time of every
// screen change, so a waiter can tell when output first followed a key.
type loadClient struct {
	name  string
	node  int          // which of a cluster's nodes it dialled (0 for one server)
	key   gossh.Signer // its identity: dialled again with it, it is the same player
	w, h  int
	conn  *gossh.Client
	sess  *gossh.Session
	stdin io.WriteCloser

	writeMu sync.Mutex

	mu      sync.Mutex
	term    *vterm.Term
	ver     uint64        // output chunks received so far
	times   [32]time.Time // arrival time of chunk ver, at times[ver%32]
	changed chan struct{} // closed and replaced on every chunk and at EOF
	ended   bool
}

// loadDial opens one player's connection. The handshake time covers the TCP
// connect, key exchange and public-key authentication.
// from is the local address to dial from (nil: the system picks).
func loadDial(addr string, from *net.TCPAddr, user string, timeout time.Duration, w, h int) (*loadClient, time.Duration, error) {
	if err := loopbackOnly(addr); err != nil {
		return nil, 0, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, 0, err
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, 0, err
	}
	return loadDialAs(addr, from, user, signer, timeout, w, h)
}

// loadDialAs is loadDial with the player's key: the same key is the same
// player (their seats, their games in progress).
func loadDialAs(addr string, from *net.TCPAddr, user string, signer gossh.Signer, timeout time.Duration, w, h int) (*loadClient, time.Duration, error) {
	cfg := &gossh.ClientConfig{
		User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		// The harness starts the server itself, on loopback, with a fresh
		// host key: there is nothing to pin it against.
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         timeout,
	}
	start := time.Now()
	d := net.Dialer{Timeout: timeout, LocalAddr: from}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, 0, err
	}
	_ = nc.SetDeadline(start.Add(timeout))
	sc, chans, reqs, err := gossh.NewClientConn(nc, addr, cfg)
	if err != nil {
		nc.Close()
		return nil, 0, err
	}
	hs := time.Since(start)
	_ = nc.SetDeadline(time.Time{})
	c := &loadClient{name: user, key: signer, w: w, h: h, conn: gossh.NewClient(sc, chans, reqs), term: vterm.New(w, h), changed: make(chan struct{})}
	if err := c.start(w, h); err != nil {
		c.Close()
		return nil, hs, err
	}
	return c, hs, nil
}

func (c *loadClient) start(w, h int) error {
	sess, err := c.conn.NewSession()
	if err != nil {
		return err
	}
	c.sess = sess
	if c.stdin, err = sess.StdinPipe(); err != nil {
		return err
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return err
	}
	sess.Stderr = io.Discard
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		return err
	}
	go c.read(out)
	return sess.Shell()
}

func (c *loadClient) read(r io.Reader) {
	buf := make([]byte, 16<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			now := time.Now()
			c.mu.Lock()
			c.term.Write(buf[:n])
			replies := c.term.TakeReplies()
			c.ver++
			c.times[c.ver%uint64(len(c.times))] = now
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
			if len(replies) > 0 {
				_ = c.Type(string(replies))
			}
		}
		if err != nil {
			c.mu.Lock()
			c.ended = true
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
			return
		}
	}
}

// Ended reports whether the session's output ended (its server went).
func (c *loadClient) Ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended
}

// Type sends keys.
func (c *loadClient) Type(s string) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := io.WriteString(c.stdin, s)
	return err
}

// Version is how many output chunks have arrived.
func (c *loadClient) Version() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ver
}

// Screen is the current screen text.
func (c *loadClient) Screen() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.term.Screen()
}

var (
	errWaitTimeout = errors.New("timed out")
	errEnded       = errors.New("session ended")
)

// WaitChange waits for the first output after version since and returns
// when it arrived.
func (c *loadClient) WaitChange(since uint64, timeout time.Duration) (time.Time, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		if c.ver > since {
			at := c.times[(since+1)%uint64(len(c.times))]
			if c.ver-since >= uint64(len(c.times)) {
				at = c.times[c.ver%uint64(len(c.times))] // too far behind: a late bound
			}
			c.mu.Unlock()
			return at, nil
		}
		ended, ch := c.ended, c.changed
		c.mu.Unlock()
		if ended {
			return time.Time{}, errEnded
		}
		select {
		case <-ch:
		case <-deadline.C:
			return time.Time{}, errWaitTimeout
		}
	}
}

// WaitScreen waits until the screen satisfies ok and returns the arrival
// time of the output that made it so, and the screen.
func (c *loadClient) WaitScreen(ok func(string) bool, timeout time.Duration) (time.Time, string, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		screen := c.term.Screen()
		at := c.times[c.ver%uint64(len(c.times))]
		ended, ch := c.ended, c.changed
		c.mu.Unlock()
		if ok(screen) {
			return at, screen, nil
		}
		if ended {
			return time.Time{}, screen, errEnded
		}
		select {
		case <-ch:
		case <-deadline.C:
			return time.Time{}, screen, errWaitTimeout
		}
	}
}

// WaitText waits for the screen to contain s.
func (c *loadClient) WaitText(s string, timeout time.Duration) (time.Time, string, error) {
	return c.WaitScreen(func(scr string) bool { return strings.Contains(scr, s) }, timeout)
}

// Close ends the session and the connection.
func (c *loadClient) Close() {
	if c.sess != nil {
		_ = c.sess.Close()
	}
	if c.conn != nil {
		_ = c.conn.Close()
	}
}

// loopbackOnly refuses any address but 127.0.0.1: the harness opens
// thousands of connections and must never aim them at someone else.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host != "127.0.0.1" {
		return errors.New("load: only 127.0.0.1 is allowed as a target, not " + host)
	}
	return nil
}

// sourcesPerTarget is how many sessions the harness opens from one
// loopback source address. Each connection to the one server address takes
// an ephemeral port of its source address (28,000 on a stock Linux), and a
// closed one stays in TIME_WAIT for a minute, when the next server is
// already being connected: 10,000 players against Bivouac and then the
// baseline would come close to running out.
const sourcesPerTarget = 4000

// loadSource is the loopback address player i dials from: 127.0.0.1 for
// the first sourcesPerTarget, then 127.0.0.2, and so on (all of 127.0.0.0/8
// is loopback on Linux).
func loadSource(i int) *net.TCPAddr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i/sourcesPerTarget))}
}
