// Package sshtest drives an SSH server end to end in tests: start it on a
// live 127.0.0.1:0 listener, dial it as a player with an ed25519 key or as a
// keyless guest, ask for a PTY of a given size, type, resize, and wait for
// output without sleeping.
//
//	addr := sshtest.Start(t, srv) // any Serve(net.Listener)/Shutdown(ctx) server
//	alice := sshtest.Dial(t, addr, sshtest.WithPTY(80, 24))
//	alice.Type("n")
//	code := alice.Expect(t, `table ([A-Z0-9]{4})`, 5*time.Second)[1]
//	alice.ExpectScreen(t, `2/2 seated`, 5*time.Second)
//
// A Client keeps every byte it received (Transcript), the text of that
// output with control sequences removed (Text, what Expect searches), and a
// model of the terminal screen (Screen, what ExpectScreen searches), kept by
// a small VT100/xterm emulator (package vterm). The emulator answers
// cursor-position, device-attribute and background-colour queries, so a
// server that probes the terminal (wish's MakeRenderer) gets an answer at once.
package sshtest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest/vterm"
)

// Server is what Start can run: sshserver.Server, or any other.
type Server interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
}

// Start serves srv on a fresh 127.0.0.1:0 listener, handed to Serve while
// open (no port race), and returns the address. At cleanup it shuts srv
// down (5 s) and fails the test if Serve returned anything but after that.
func Start(t testing.TB, srv Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("sshtest: listen: %v", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("sshtest: Shutdown: %v", err)
		}
		select {
		case err := <-served:
			if err != nil && !strings.Contains(err.Error(), "closed") {
				t.Errorf("sshtest: Serve: %v", err)
			}
		case <-ctx.Done():
			t.Errorf("sshtest: Serve did not return after Shutdown")
		}
	})
	return l.Addr().String()
}

// NewKey returns a fresh ed25519 signer.
func NewKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Fingerprint is gossh.FingerprintSHA256 of the signer's public key: the
// player ID a server should give a client using it.
func Fingerprint(s gossh.Signer) string { return gossh.FingerprintSHA256(s.PublicKey()) }

type config struct {
	user      string
	signers   []gossh.Signer
	guest     bool
	pty       bool
	w, h      int
	termType  string
	command   string
	neverRead bool
	env       [][2]string
	timeout   time.Duration
	from      string
	fallback  bool
}

// Option configures Dial.
type Option func(*config)

// WithKey authenticates with these signers, offered in order (default: one
// fresh ed25519 key).
func WithKey(signers ...gossh.Signer) Option {
	return func(c *config) { c.signers = signers; c.guest = false }
}

// AsGuest logs in without a key, by keyboard-interactive answering any
// prompt with an empty string.
func AsGuest() Option { return func(c *config) { c.guest = true; c.signers = nil } }

// LikeOpenSSH offers keyboard-interactive after the keys, as OpenSSH does
// by default: a client whose keys are all refused still gets to hear why.
func LikeOpenSSH() Option { return func(c *config) { c.fallback = true } }

// WithUser sets the SSH user name (default "player"). For a guest, a reclaim
// code here reclaims that guest's seat.
func WithUser(name string) Option { return func(c *config) { c.user = name } }

// WithPTY requests a PTY of w×h cells (the default is 80×24 xterm-256color).
func WithPTY(w, h int) Option { return func(c *config) { c.pty, c.w, c.h = true, w, h } }

// WithTerm sets the PTY's TERM (default xterm-256color).
func WithTerm(term string) Option { return func(c *config) { c.termType = term } }

// WithoutPTY asks for no PTY, like `ssh -T`.
func WithoutPTY() Option { return func(c *config) { c.pty = false } }

// WithCommand runs cmd (exec) instead of asking for a shell.
func WithCommand(cmd string) Option { return func(c *config) { c.command = cmd } }

// WithEnv sends an environment variable before the shell or command.
func WithEnv(key, value string) Option {
	return func(c *config) { c.env = append(c.env, [2]string{key, value}) }
}

// WithTimeout bounds the TCP dial and SSH handshake (default 5 s).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// From dials from this local IP address (on loopback, any of 127.0.0.0/8
// works on Linux): a player from another address.
func From(ip string) Option { return func(c *config) { c.from = ip } }

// NeverRead makes a client that never reads its channel: the server's
// writes fill the SSH window and then block, as with a stalled player.
// Expect and Screen see nothing for such a client.
func NeverRead() Option { return func(c *config) { c.neverRead = true } }

// Client is one SSH connection with one session.
type Client struct {
	Conn    *gossh.Client  // the connection, to open more channels
	Session *gossh.Session // the session Dial started
	Signer  gossh.Signer   // the first key offered; nil for a guest

	stdin   io.WriteCloser
	writeMu sync.Mutex

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced whenever output arrives or streams end
	transcript []byte
	term       *vterm.Term
	consumed   int // Expect's position in term.Text()
	open       int // output streams not yet at EOF
	exitDone   chan struct{}
	exitErr    error

	closeOnce sync.Once
}

// Dial connects to addr and starts a shell (or WithCommand's command),
// failing the test on any error. The client is closed at cleanup.
func Dial(t testing.TB, addr string, opts ...Option) *Client {
	t.Helper()
	c, err := DialE(t, addr, opts...)
	if err != nil {
		t.Fatalf("sshtest: dial %s: %v", addr, err)
	}
	return c
}

// DialE is Dial returning the error, for tests where refusal is expected.
func DialE(t testing.TB, addr string, opts ...Option) (*Client, error) {
	cfg := config{user: "player", pty: true, w: 80, h: 24, termType: "xterm-256color", timeout: 5 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	cc := &gossh.ClientConfig{
		User:            cfg.user,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // a test server's fresh key
		Timeout:         cfg.timeout,
	}
	var first gossh.Signer
	if cfg.guest {
		cc.Auth = []gossh.AuthMethod{gossh.KeyboardInteractive(
			func(_, _ string, questions []string, _ []bool) ([]string, error) {
				return make([]string, len(questions)), nil
			})}
	} else {
		if len(cfg.signers) == 0 {
			cfg.signers = []gossh.Signer{NewKey(t)}
		}
		first = cfg.signers[0]
		cc.Auth = []gossh.AuthMethod{gossh.PublicKeys(cfg.signers...)}
		if cfg.fallback {
			cc.Auth = append(cc.Auth, gossh.KeyboardInteractive(
				func(_, _ string, questions []string, _ []bool) ([]string, error) {
					return make([]string, len(questions)), nil
				}))
		}
	}

	d := net.Dialer{Timeout: cfg.timeout}
	if cfg.from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(cfg.from)}
	}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	_ = nc.SetDeadline(time.Now().Add(cfg.timeout))
	sc, chans, reqs, err := gossh.NewClientConn(nc, addr, cc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	_ = nc.SetDeadline(time.Time{})
	conn := gossh.NewClient(sc, chans, reqs)

	c := &Client{
		Conn:     conn,
		Signer:   first,
		changed:  make(chan struct{}),
		term:     vterm.New(cfg.w, cfg.h),
		exitDone: make(chan struct{}),
	}
	c.term.RecordText()
	if err := c.start(cfg); err != nil {
		conn.Close()
		return nil, err
	}
	t.Cleanup(c.Close)
	return c, nil
}

func (c *Client) start(cfg config) error {
	sess, err := c.Conn.NewSession()
	if err != nil {
		return err
	}
	c.Session = sess
	if c.stdin, err = sess.StdinPipe(); err != nil {
		return err
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := sess.StderrPipe()
	if err != nil {
		return err
	}
	for _, kv := range cfg.env {
		if err := sess.Setenv(kv[0], kv[1]); err != nil {
			return fmt.Errorf("setenv %s: %w", kv[0], err)
		}
	}
	if cfg.pty {
		if err := sess.RequestPty(cfg.termType, cfg.h, cfg.w, gossh.TerminalModes{}); err != nil {
			return fmt.Errorf("pty: %w", err)
		}
	}
	if !cfg.neverRead {
		c.open = 2
		// Each stream has its own parser: a sequence split across reads
		// must not be cut by the other stream.
		go c.read(stdout, c.term.Write)
		stderrParser := &vterm.Parser{}
		go c.read(stderr, func(b []byte) { stderrParser.Write(c.term, b) })
	}
	if cfg.command != "" {
		err = sess.Start(cfg.command)
	} else {
		err = sess.Shell()
	}
	if err != nil {
		return err
	}
	go func() {
		err := sess.Wait()
		c.mu.Lock()
		c.exitErr = err
		c.mu.Unlock()
		close(c.exitDone)
	}()
	return nil
}

// read feeds r's output to the terminal through write, under c.mu.
func (c *Client) read(r io.Reader, write func([]byte)) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.mu.Lock()
			c.transcript = append(c.transcript, buf[:n]...)
			write(buf[:n])
			replies := c.term.TakeReplies()
			c.broadcastLocked()
			c.mu.Unlock()
			if len(replies) > 0 {
				_ = c.write(replies) // in order, before reading further
			}
		}
		if err != nil {
			c.mu.Lock()
			c.open--
			c.broadcastLocked()
			c.mu.Unlock()
			return
		}
	}
}

func (c *Client) broadcastLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) write(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.stdin.Write(b)
	return err
}

// Type sends s as keystrokes ("\r" is Enter, "\x1b[A" the up arrow, "\x03" ^C).
// A failed write (session gone) shows up as the next Expect failing.
func (c *Client) Type(s string) { _ = c.write([]byte(s)) }

// Resize tells the server the window is now w×h.
func (c *Client) Resize(w, h int) {
	c.mu.Lock()
	c.term.Resize(w, h)
	c.mu.Unlock()
	_ = c.Session.WindowChange(h, w)
}

// Expect waits until the output not yet consumed by an earlier Expect
// matches pattern, consumes it up to the end of the match, and returns the
// match and its groups. The output is searched as text: control sequences
// removed, and a newline wherever the cursor changed rows. It fails the test
// (with the screen) after timeout or if the output ends without a match.
func (c *Client) Expect(t testing.TB, pattern string, timeout time.Duration) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	var got []string
	c.waitFor(t, "output matching "+pattern, timeout, func() bool {
		text := c.term.Text()[c.consumed:]
		m := re.FindSubmatchIndex(text)
		if m == nil {
			return false
		}
		got = submatches(text, m)
		c.consumed += m[1]
		return true
	})
	return got
}

// ExpectScreen waits until the current screen (see Screen) matches pattern
// and returns the match and its groups.
func (c *Client) ExpectScreen(t testing.TB, pattern string, timeout time.Duration) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	var got []string
	c.waitFor(t, "a screen matching "+pattern, timeout, func() bool {
		screen := []byte(c.term.Screen())
		m := re.FindSubmatchIndex(screen)
		if m == nil {
			return false
		}
		got = submatches(screen, m)
		return true
	})
	return got
}

// NextScreen waits until the screen differs from last and returns it. It
// looks at each piece of output as it arrives, so a screen a reader must
// act on is not left to the luck of a sampling interval.
func (c *Client) NextScreen(t testing.TB, last string, timeout time.Duration) string {
	t.Helper()
	var screen string
	c.waitFor(t, "a screen other than the last", timeout, func() bool {
		screen = c.term.Screen()
		return screen != last
	})
	return screen
}

func submatches(b []byte, m []int) []string {
	out := make([]string, len(m)/2)
	for i := range out {
		if m[2*i] >= 0 {
			out[i] = string(b[m[2*i]:m[2*i+1]])
		}
	}
	return out
}

// waitFor runs cond under c.mu each time output arrives, until it holds.
func (c *Client) waitFor(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	timeout = Patient(timeout)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		ok, ended, changed := cond(), c.open <= 0, c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		if ended {
			t.Fatalf("sshtest: output ended without %s\n%s", what, c.report())
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("sshtest: no %s after %v\n%s", what, timeout, c.report())
		}
	}
}

func (c *Client) report() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	text := c.term.Text()[c.consumed:]
	if len(text) > 2000 {
		text = text[len(text)-2000:]
	}
	return fmt.Sprintf("--- screen ---\n%s\n--- unconsumed text (tail) ---\n%s", c.term.Screen(), text)
}

// Transcript returns a copy of every byte received (stdout and stderr, as
// they arrived).
func (c *Client) Transcript() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.transcript...)
}

// Text returns all output so far as text (what Expect searches).
func (c *Client) Text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.term.Text())
}

// Screen returns the terminal screen as text: one line per row, trailing
// spaces trimmed, rows joined by "\n", attributes dropped.
func (c *Client) Screen() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.term.Screen()
}

// Wait waits for the session to end and for its output to be read in full
// (the exit status can arrive before the last of stdout and stderr is
// consumed), and returns its exit status, or -1 if it ended without one
// (connection closed, signal). It fails the test after timeout.
func (c *Client) Wait(t testing.TB, timeout time.Duration) int {
	t.Helper()
	timeout = Patient(timeout)
	deadline := time.After(timeout)
	select {
	case <-c.exitDone:
	case <-deadline:
		t.Fatalf("sshtest: session still running after %v\n%s", timeout, c.report())
	}
	for {
		c.mu.Lock()
		open := c.open
		c.mu.Unlock()
		if open <= 0 {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("sshtest: output still open %v after the session ended", timeout)
		case <-time.After(time.Millisecond):
		}
	}
	c.mu.Lock()
	err := c.exitErr
	c.mu.Unlock()
	var ee *gossh.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitStatus()
	default:
		return -1
	}
}

// Done is closed when the session has ended.
func (c *Client) Done() <-chan struct{} { return c.exitDone }

// Close ends the session and the connection. It is safe to call more than once.
func (c *Client) Close() {
	c.closeOnce.Do(func() {
		if c.Session != nil {
			_ = c.Session.Close()
		}
		_ = c.Conn.Close()
	})
}
