package sshserver

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/words"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
)

// messageTimeout bounds how long telling a player something may take: a
// client that stops reading must not pin the session's goroutine.
const messageTimeout = 2 * time.Second

// tell writes msg (one or more lines) to the session's stderr, which a
// terminal shows and a script can tell from output, and gives up after
// messageTimeout. With a PTY the ssh package turns \n into \r\n.
func tell(s ssh.Session, msg string) {
	msg = strings.TrimRight(msg, "\n") + "\n"
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.WriteString(s.Stderr(), msg)
	}()
	select {
	case <-done:
	case <-time.After(messageTimeout):
	}
}

// refuse tells the player why and ends the session with status 1.
func refuse(s ssh.Session, msg string) {
	tell(s, msg)
	_ = s.Exit(1)
}

// refuseMsg refuses with a message in the session's language.
func refuseMsg(s ssh.Session, key string, args ...words.Arg) {
	refuse(s, Printer(s).T(key, args...))
}

// Printer is the session's language as its environment names it
// (LC_ALL, LC_MESSAGES, LANG), English when it names none we speak.
func Printer(s ssh.Session) *i18n.Printer {
	l, _ := i18n.FromEnv(s.Environ())
	return i18n.For(l)
}

// markRefused records why a session was refused, for the disconnect log
// and the operator's metric.
func (s *Server) markRefused(sess ssh.Session, why Refusal) {
	s.refusedFor.Store(sess, why)
	s.refused(why)
}

// logging logs every session, refused ones included: connect with what the
// client asked for, disconnect with the duration and, if the session was
// refused, why. Afterwards it drains the window-change channel (see
// drainWindowChanges).
func (s *Server) logging(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		s.handlers.add()
		defer s.handlers.done()
		defer drainWindowChanges(sess)

		pty, _, hasPty := sess.Pty()
		keyFP := "none"
		if k := sess.PublicKey(); k != nil {
			keyFP = fingerprint(k)
		}
		s.log.Info("connect",
			"session", shortID(sess),
			"remote", sess.RemoteAddr().String(),
			"user", s.logUser(sess.User()),
			"key", keyFP,
			"command", s.logCommand(sess.RawCommand()),
			"pty", hasPty, "term", sanitize.Line(pty.Term, 40),
			"width", pty.Window.Width, "height", pty.Window.Height,
			"client", sanitize.Line(sess.Context().ClientVersion(), 80),
		)
		next(sess)
		kv := []any{
			"session", shortID(sess),
			"remote", sess.RemoteAddr().String(),
			"duration", time.Since(start).Round(time.Millisecond),
		}
		if id, ok := IdentityOf(sess); ok {
			kv = append(kv, "id", id.ID)
		}
		if why, ok := s.refusedFor.LoadAndDelete(sess); ok {
			kv = append(kv, "refused", why)
		}
		s.log.Info("disconnect", kv...)
	}
}

// logUser is the SSH user name as the log shows it: a reclaim code (right
// or wrong) or an invite is a secret, so it is never written out.
func (s *Server) logUser(user string) string {
	if label := s.secretUser(user); label != "" {
		return label
	}
	return sanitize.Line(user, 64)
}

// drainWindowChanges empties the session's window-change channel after the
// handler returns. The ssh package sends each window-change request into a
// one-slot channel from the request loop; with nobody reading it any more,
// a client resizing at the end of a session would block that loop forever
// and leak its goroutine.
func drainWindowChanges(sess ssh.Session) {
	_, winch, _ := sess.Pty()
	if winch == nil {
		return
	}
	go func() {
		for range winch { // closed when the session's request stream ends
		}
	}()
}

// recovery turns a panic in the rest of the chain (the caps, identity,
// command or TUI code) into an error log with the stack and the end of that
// one session; the server and every other session go on.
func (s *Server) recovery(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				id, _ := IdentityOf(sess)
				s.log.Error("panic in session", "session", shortID(sess), "id", id.ID,
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				s.markRefused(sess, RefusedInternal)
				refuseMsg(sess, "ssh.internal")
			}
		}()
		next(sess)
	}
}

// caps tells a connection that was over the per-IP or global cap at accept
// time (see onConn) why it is refused, and ends it.
func (s *Server) caps(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if r := refusalOf(sess.Context()); r.why != "" {
			s.markRefused(sess, r.why)
			refuse(sess, Printer(sess).Msg(r.msg)) // onConn's timer closes the connection if the client lingers
			return
		}
		next(sess)
	}
}

// identity re-verifies the authenticated key (or guest login), stores the
// Identity in the connection's context for IdentityFrom, and refuses a
// session whose records don't add up.
func (s *Server) identity(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		id, err := identify(sess, s.cfg.AllowGuests, s.secretUser)
		if err != nil {
			s.log.Warn("identity refused", "session", shortID(sess),
				"remote", sess.RemoteAddr().String(), "err", err)
			s.markRefused(sess, RefusedIdentity)
			refuseMsg(sess, "ssh.identity")
			return
		}
		sess.Context().SetValue(identityKey{}, id)
		if s.deps.Admit != nil {
			if why, say := s.deps.Admit(sess, id); why != "" {
				s.markRefused(sess, why)
				refuse(sess, say)
				return
			}
		}
		if s.deps.OnConnect != nil {
			s.deps.OnConnect(sess, id)
		}
		if s.deps.OnDisconnect != nil {
			start := time.Now()
			defer func() { s.deps.OnDisconnect(sess, id, time.Since(start)) }()
		}
		next(sess)
	}
}

// commands answers sessions without a PTY: a command goes to Deps.Command,
// whose result is the exit status; no command at all (plain `ssh -T host`,
// or a client that did not get a terminal) gets a hint. PTY sessions pass
// through to the TUI, which reads s.Command() itself (`ssh -t host join
// CODE`), unless their command is not one the TUI opens (Deps.Opens): that
// one goes to Deps.Command too, which says what is wrong with it.
func (s *Server) commands(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		// Splitting a command line into words (sess.Command) costs time
		// that grows with the square of its length: 100 KB took seconds of
		// CPU. Our commands are a few words long.
		if n := len(sess.RawCommand()); n > MaxCommand {
			s.markRefused(sess, RefusedCommandLong)
			refuseMsg(sess, "ssh.command_long", words.Num("N", n), words.Num("Max", MaxCommand))
			return
		}
		if s.deps.Plain != nil && WantsPlain(sess) {
			_ = sess.Exit(s.deps.Plain(sess))
			return
		}
		args := sess.Command()
		if _, _, ok := sess.Pty(); ok && (len(args) == 0 || s.deps.Command == nil || s.opens(args)) {
			next(sess)
			return
		}
		if len(args) == 0 || s.deps.Command == nil {
			refuse(sess, needsTerminal(sess))
			return
		}
		code := s.deps.Command(sess, args)
		_ = sess.Exit(code)
	}
}

// opens: the program handles this PTY session's command (Deps.Opens).
func (s *Server) opens(args []string) bool { return s.deps.Opens == nil || s.deps.Opens(args) }

// logCommand is a command line as the log shows it: its first word if it
// is one of the server's (Deps.Verb), and a tag for every other word, the
// same for the same word within this process (so one code can be followed
// through the log) and telling nothing of it. `join AH23X5QC` is logged
// as "join <3f9a0c12>".
func (s *Server) logCommand(raw string) string {
	if len(raw) > MaxCommand {
		return fmt.Sprintf("(%d bytes)", len(raw))
	}
	words := strings.Fields(raw)
	for i, w := range words {
		if i == 0 && s.verb(strings.ToLower(w)) {
			words[i] = strings.ToLower(w)
			continue
		}
		words[i] = s.tag(w)
	}
	return strings.Join(words, " ")
}

func (s *Server) verb(w string) bool {
	return w == "plain" || (s.deps.Verb != nil && s.deps.Verb(w))
}

// WantsPlain reports whether a session asks for plain (screen reader)
// mode: the command "plain" (ssh -t host plain) or BIVOUAC_UI=plain.
func WantsPlain(sess ssh.Session) bool {
	if c := sess.Command(); len(c) > 0 && strings.EqualFold(c[0], "plain") {
		return true
	}
	return strings.EqualFold(environ(sess.Environ()).Getenv("BIVOUAC_UI"), "plain")
}

// WantsASCII reports whether a session's terminal shows only ASCII:
// BIVOUAC_UI=ascii, a terminal type that draws no Unicode (vt100, vt52,
// dumb...), or a locale whose character set is not UTF-8 (LANG=C, POSIX,
// en_US.ISO-8859-1), read as the C library does: LC_ALL, then LC_CTYPE,
// then LANG. A client that sends no locale is taken to be UTF-8, as
// nearly every terminal today is.
func WantsASCII(sess ssh.Session) bool {
	env := environ(sess.Environ())
	if strings.EqualFold(env.Getenv("BIVOUAC_UI"), "ascii") {
		return true
	}
	term := env.Getenv("TERM")
	if pty, _, ok := sess.Pty(); ok {
		term = pty.Term
	}
	if asciiTerms[strings.ToLower(term)] {
		return true
	}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env.Getenv(k); v != "" {
			return !unicodeLocale(v)
		}
	}
	return false
}

// asciiTerms are terminal types that draw no Unicode.
var asciiTerms = map[string]bool{"dumb": true, "vt52": true, "vt100": true, "vt102": true, "vt220": true, "ansi": true}

// unicodeLocale: the locale's character set is UTF-8 ("pl_PL.UTF-8",
// "C.UTF-8", "ru_RU.utf8").
func unicodeLocale(v string) bool {
	charset := v // macOS may send the bare charset: LC_CTYPE=UTF-8
	if _, after, ok := strings.Cut(v, "."); ok {
		charset = after
	}
	charset, _, _ = strings.Cut(charset, "@")
	charset = strings.ReplaceAll(strings.ToLower(charset), "-", "")
	return charset == "utf8"
}

// MaxCommand is the longest command line a session may send.
const MaxCommand = 1024

// needsTerminal is the hint for a session that has no PTY and nothing to run.
func needsTerminal(sess ssh.Session) string {
	port := "2222"
	if a := sess.LocalAddr(); a != nil {
		if i := strings.LastIndexByte(a.String(), ':'); i >= 0 {
			port = a.String()[i+1:]
		}
	}
	return Printer(sess).T("ssh.needs_terminal", words.Text("Port", port))
}

// noProgram ends the chain: it tells a PTY session for which Deps.Programs
// made no program so (the chain also gets here after a program ends).
func (s *Server) noProgram(_ ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if _, none := s.noProgramFor.LoadAndDelete(sess); none {
			refuseMsg(sess, "ssh.nothing")
		}
	}
}

func shortID(sess ssh.Session) string {
	id := sess.Context().SessionID()
	if len(id) > 10 {
		id = id[:10]
	}
	return id
}

var _ wish.Middleware = (*Server)(nil).logging
