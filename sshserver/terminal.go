package sshserver

import (
	"bytes"
	"image/color"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

// Terminal is what a PTY session's program draws with: a renderer for the
// player's terminal (colour profile from TERM, COLORTERM and NO_COLOR; light
// or dark from asking the terminal) and the keyboard to read from.
//
// It replaces wish's MakeRenderer, which asks the terminal the same thing
// through a key-sequence parser that builds a ~50 KiB table per session
// (most of the garbage a connection made), and which, when a terminal does
// not answer, leaves a read behind that swallows the player's first key.
// Here a late answer costs nothing: the read in flight is handed on, and
// anything typed meanwhile reaches the program.
type Terminal struct {
	Renderer *lipgloss.Renderer
	Input    io.Reader // the player's keys, within the typing budget (ratelimit.go)
	Output   io.Writer // see RawOutput
	// Dropped receives when keys over the typing budget were thrown away,
	// so the program can say so; at most one signal waits.
	Dropped <-chan struct{}
}

// queryTimeout is how long a terminal has to answer before the session
// starts with a dark background assumed.
const queryTimeout = time.Second

// bgQuery asks for the background colour, then for the primary device
// attributes, which every terminal answers: its answer ends the wait.
const bgQuery = "\x1b]11;?\x07\x1b[c"

// NewTerminal asks s's terminal for its background and builds its
// renderer. Without a PTY, or with TERM unset or dumb, it draws plain text
// and asks nothing.
func NewTerminal(s ssh.Session) Terminal {
	keys := sessionTyping(s)
	pty, _, ok := s.Pty()
	if !ok || pty.Term == "" || pty.Term == "dumb" {
		r := lipgloss.NewRenderer(s, termenv.WithProfile(termenv.Ascii))
		r.SetHasDarkBackground(true)
		return Terminal{Renderer: r, Input: keys, Output: RawOutput(s), Dropped: keys.dropped}
	}
	env := environ(append(s.Environ(), "TERM="+pty.Term))
	r := lipgloss.NewRenderer(s, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	dark, in := askBackground(keys, s, queryTimeout)
	r.SetHasDarkBackground(dark)
	return Terminal{Renderer: r, Input: in, Output: RawOutput(s), Dropped: keys.dropped}
}

// Keyboard is the session's input with the typing budget applied, for a
// session that reads lines rather than running a program (plain mode);
// dropped signals that keys over the budget were thrown away.
func Keyboard(s ssh.Session) (keys io.Reader, dropped <-chan struct{}) {
	k := sessionTyping(s)
	return k, k.dropped
}

// sessionTyping is s's input under its own typing budget and its address's.
func sessionTyping(s ssh.Session) *typingBudget {
	addr, _ := s.Context().Value(typingKey{}).(*rate.Limiter)
	return newTypingBudget(s, addr)
}

// RawOutput is where a PTY session's program may draw: the session's
// channel itself, when it can be told apart, else the session. Writes to
// the session go through charmbracelet/ssh's emulated PTY, which turns \n
// into \r\n by copying every write twice: for full-screen frames that was
// half of what a keypress allocated. So what is written here must already
// end its lines with \r\n.
//
// The channel is told apart when it is the connection's only session
// channel (as with any ssh client that is not multiplexing): the session
// was necessarily made from it.
func RawOutput(s ssh.Session) io.Writer {
	if _, _, ok := s.Pty(); !ok || !s.EmulatedPty() {
		return s
	}
	if slot, ok := s.Context().Value(rawChannelKey{}).(*rawChannelSlot); ok {
		if ch := slot.only(); ch != nil {
			return ch
		}
	}
	return s
}

type rawChannelKey struct{}

// rawChannelSlot holds a connection's session channel while it has had
// just one.
type rawChannelSlot struct {
	mu sync.Mutex
	ch gossh.Channel
	n  int
}

func (r *rawChannelSlot) accepted(ch gossh.Channel) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.ch = nil
	if r.n == 1 {
		r.ch = ch
	}
}

func (r *rawChannelSlot) only() gossh.Channel {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ch
}

// askBackground writes bgQuery to out and reads in until the terminal's
// answers are complete or timeout passes. It reports whether the
// background is dark (true when unknown) and returns the input to read
// from now on: whatever came besides the answers, then the rest of in.
func askBackground(in io.Reader, out io.Writer, timeout time.Duration) (dark bool, rest io.Reader) {
	if _, err := io.WriteString(out, bgQuery); err != nil {
		return true, in
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var got []byte
	for {
		pending := readOnce(in)
		select {
		case c := <-pending:
			got = append(got, c.data...)
			if c.err != nil {
				dark, typed, _ := parseAnswers(got)
				return dark, &handedOn{rest: typed, err: c.err}
			}
			if dark, typed, done := parseAnswers(got); done {
				return dark, &handedOn{rest: typed, r: in}
			}
		case <-deadline.C:
			dark, typed, _ := parseAnswers(got)
			return dark, &handedOn{rest: typed, pending: pending, r: in}
		}
	}
}

type chunk struct {
	data []byte
	err  error
}

// readOnce does one Read of r in the background (a session read cannot be
// given a deadline) and delivers what it got.
func readOnce(r io.Reader) <-chan chunk {
	c := make(chan chunk, 1)
	go func() {
		buf := make([]byte, 256)
		n, err := r.Read(buf)
		c <- chunk{buf[:n], err}
	}()
	return c
}

// parseAnswers takes the terminal's answers out of what it sent: the
// background colour (OSC 11) and the device attributes (CSI ? … c) that
// mark the end. done is false until the latter came. Everything else is
// the player typing, kept in order.
func parseAnswers(b []byte) (dark bool, typed []byte, done bool) {
	dark = true
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\x1b')
		if i < 0 {
			typed = append(typed, b...)
			break
		}
		typed = append(typed, b[:i]...)
		b = b[i:]
		switch {
		case bytes.HasPrefix(b, []byte("\x1b]11;")):
			end, n := oscEnd(b)
			if end < 0 {
				return dark, typed, false // the rest is still coming
			}
			if c := ansi.XParseColor(string(b[len("\x1b]11;"):end])); c != nil {
				dark = isDark(c)
			}
			b = b[end+n:]
		case bytes.HasPrefix(b, []byte("\x1b[?")):
			j := 3
			for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == ';') {
				j++
			}
			if j == len(b) {
				return dark, typed, false
			}
			if b[j] != 'c' { // some other report: leave it to the program
				typed = append(typed, b[:j+1]...)
				b = b[j+1:]
				continue
			}
			return dark, append(typed, b[j+1:]...), true
		default:
			typed = append(typed, b[0])
			b = b[1:]
		}
	}
	return dark, typed, false
}

// oscEnd finds the end of an OSC string: BEL or ESC \ (index and length),
// or -1 while it has not come yet.
func oscEnd(b []byte) (int, int) {
	for i, c := range b {
		switch {
		case c == '\a':
			return i, 1
		case c == '\x1b' && i+1 < len(b) && b[i+1] == '\\':
			return i, 2
		}
	}
	return -1, 0
}

// isDark: HSL lightness under one half, as lipgloss judges.
func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return max(r, g, b)+min(r, g, b) < 0xffff
}

// handedOn is the session's input after the query: the bytes read that
// were not answers, then the read still in flight (if the wait timed out),
// then the session itself.
type handedOn struct {
	rest    []byte
	pending <-chan chunk
	r       io.Reader
	err     error // the input ended during the query
}

func (h *handedOn) Read(p []byte) (int, error) {
	if len(h.rest) == 0 && h.pending != nil {
		c := <-h.pending
		h.pending = nil
		h.rest = c.data
		if c.err != nil {
			h.err, h.r = c.err, nil
		}
	}
	if len(h.rest) > 0 {
		n := copy(p, h.rest)
		h.rest = h.rest[n:]
		return n, nil
	}
	if h.r == nil {
		if h.err == nil {
			return 0, io.EOF
		}
		return 0, h.err
	}
	return h.r.Read(p)
}

// environ is the session's environment, for termenv's colour profile.
type environ []string

func (e environ) Environ() []string { return e }

// Getenv gives the last setting of k, so the PTY's TERM, appended, wins.
func (e environ) Getenv(k string) string {
	for i := len(e) - 1; i >= 0; i-- {
		if name, val, ok := strings.Cut(e[i], "="); ok && name == k {
			return val
		}
	}
	return ""
}
