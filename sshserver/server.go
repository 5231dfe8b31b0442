package sshserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/logredact"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Shutdown.
var ErrServerClosed = ssh.ErrServerClosed

// Config is the server's settings. Zero values take the defaults noted; a
// negative duration turns that timeout off.
type Config struct {
	Addr        string // listen address for ListenAndServe; default ":2222"
	HostKeyPath string // required: a key file hostkeys.Ensure made (its checks are repeated)

	IdleTimeout time.Duration // close a connection with no traffic either way; default 30m
	MaxTimeout  time.Duration // close any connection after this long; default 12h
	// A connection on its way in has three deadlines, OpenSSH's
	// LoginGraceTime in steps: its version line (which a real client sends
	// at once) within VersionTimeout of accept, default 10s; the key
	// exchange done (its first authentication request) within KexTimeout
	// of that line, default 10s; authenticated within HandshakeTimeout of
	// accept, passphrase typing included, default 30s. One that misses a
	// deadline is closed, and its address owes a penalty (penalty.go).
	VersionTimeout   time.Duration
	KexTimeout       time.Duration
	HandshakeTimeout time.Duration

	// VanishedAfter bounds how long the connection of a client that
	// vanished (a laptop shut or gone from its network, nothing sent to
	// say so) is kept after the last packet from it, so that a vanished
	// laptop frees its seat within two minutes: the kernel's TCP
	// keepalives and TCP_USER_TIMEOUT find it (vanished.go), with no work
	// for the server. Default 2m.
	VanishedAfter time.Duration

	// KeepAliveInterval is how long the server waits to hear from a client
	// before it asks whether it is still there (a keepalive@openssh.com
	// request), as OpenSSH's ClientAliveInterval does: a client that typed,
	// resized or answered within the interval is not asked. One that has not
	// answered KeepAliveCountMax requests in a row is disconnected. They find
	// what the kernel's keepalives cannot: a client whose machine answers
	// but whose program hung. Default 5m and 2 (such a client is gone
	// within 15 minutes): every round trip is a request each way through
	// the cipher, and at 30s they were two thirds of the server's idle CPU
	// with 10,000 players connected (docs/PERFORMANCE.md).
	// Keepalives are traffic: with them on, IdleTimeout only ends
	// connections whose client stopped answering at the SSH level; a player
	// who just stopped typing is the TUI's business.
	KeepAliveInterval time.Duration
	KeepAliveCountMax int

	MaxSessions int // authenticated connections in all (the global cap); default 2000
	MaxPerIP    int // authenticated connections per IPv4 address or IPv6 /64; default 16
	// MaxStartups bounds the connections that have not authenticated yet,
	// in all, as OpenSSH's option of that name (see Startups); default
	// 10:30:100. MaxStartupsPerIP bounds them per address group; default 8.
	// They hold no player's place (MaxSessions and MaxPerIP count only
	// authenticated connections).
	MaxStartups        Startups
	MaxStartupsPerIP   int
	MaxChannelsPerConn int // simultaneous SSH sessions on one connection; default 4

	// MaxInputRate is the bytes a second one connection may send, after a
	// burst of MaxInputBurst; more is slowed down, not refused. Default
	// 64 KiB/s and 256 KiB: far beyond typing, far below a flood.
	MaxInputRate  int
	MaxInputBurst int
	// MaxTypingPerIP is the bytes a second that the sessions of one address
	// may type in all (see ratelimit.go); beyond it keys are dropped and the
	// player told. Default 1 KiB/s, four fast typists; negative: no limit
	// per address (the load harness, whose thousands of players share one).
	MaxTypingPerIP int

	// AllowGuests lets clients without a key in as guests (keyboard-interactive
	// with no prompts). Without it a keyless client gets "Permission denied".
	AllowGuests bool

	Version string // SSH server version string; default "Bivouac"
}

func (c *Config) defaults() {
	if c.Addr == "" {
		c.Addr = ":2222"
	}
	dur := func(d *time.Duration, def time.Duration) {
		switch {
		case *d == 0:
			*d = def
		case *d < 0:
			*d = 0
		}
	}
	dur(&c.IdleTimeout, 30*time.Minute)
	dur(&c.MaxTimeout, 12*time.Hour)
	dur(&c.VersionTimeout, 10*time.Second)
	dur(&c.KexTimeout, 10*time.Second)
	dur(&c.HandshakeTimeout, 30*time.Second)
	dur(&c.VanishedAfter, 2*time.Minute)
	dur(&c.KeepAliveInterval, 5*time.Minute)
	if c.KeepAliveCountMax <= 0 {
		c.KeepAliveCountMax = 2
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = 2000
	}
	if c.MaxPerIP <= 0 {
		c.MaxPerIP = 16
	}
	if c.MaxStartups.Start <= 0 {
		c.MaxStartups = Startups{Start: 10, Rate: 30, Full: 100}
	}
	c.MaxStartups.Full = max(c.MaxStartups.Full, c.MaxStartups.Start)
	c.MaxStartups.Rate = min(max(c.MaxStartups.Rate, 0), 100)
	if c.MaxStartupsPerIP <= 0 {
		c.MaxStartupsPerIP = 8
	}
	if c.MaxChannelsPerConn <= 0 {
		c.MaxChannelsPerConn = 4
	}
	if c.MaxInputRate <= 0 {
		c.MaxInputRate = 64 << 10
	}
	if c.MaxInputBurst <= 0 {
		c.MaxInputBurst = 256 << 10
	}
	if c.MaxTypingPerIP == 0 {
		c.MaxTypingPerIP = 1 << 10
	}
	if c.Version == "" {
		c.Version = "Bivouac"
	}
}

// Deps is what the server calls into.
type Deps struct {
	// Programs returns the TUI program for a PTY session, built with
	// bm.MakeOptions(s) and tea.WithContext(ctx), or nil if it has none for
	// it. ctx ends when the session's channel does (not the connection: one
	// connection may carry many sessions, one after another). It only ever
	// sees sessions whose identity is verified.
	Programs func(ctx context.Context, s ssh.Session) *tea.Program
	// Command runs a command of a session without a PTY (`ssh host rooms`);
	// its result is the exit status. The session is its stdin/stdout
	// (s.Stderr() for errors). nil: such sessions only get the hint.
	Command func(s ssh.Session, args []string) int
	// Opens reports whether a PTY session's command is one the program
	// handles (`ssh -t host join CODE`). Any other command runs through
	// Command even with a PTY, as without one: `ssh -t host frobnicate` is
	// told the command is unknown instead of landing in the lobby. nil:
	// every PTY session goes to the program.
	Opens func(args []string) bool
	// Verb reports whether a word is one of the server's command words,
	// which the log may show as typed. Every other word of a command, and
	// every word after the first, is logged as a tag (codes are secrets).
	// nil: only "plain".
	Verb func(word string) bool
	// Tag is how the log names a secret (a code typed in a command); nil:
	// a logredact.Tagger of the server's own.
	Tag func(secret string) string
	// Plain runs a session in plain (screen reader) mode, with or without
	// a PTY (WantsPlain says which sessions ask); its result is the exit
	// status. nil: plain mode is not offered.
	Plain func(s ssh.Session) int
	// Log receives connection logs; nil logs to slog.Default().
	Log *slog.Logger
	// KnownGuest reports whether a guest ID (GuestID) belongs to someone the
	// server knows beyond the codes this process handed out: a guest seated
	// at a table restored after a restart. nil: only this process's codes.
	KnownGuest func(id string) bool
	// Admit, if set, is asked about every session with a verified identity
	// before anything else runs for it: a refusal (why) ends the session
	// with the sentence say (in the session's language) on stderr and exit
	// status 1. It is where bans are kept out: SSH's
	// authentication itself can refuse but cannot say why.
	Admit func(s ssh.Session, id Identity) (why Refusal, say string)
	// OnConnect and OnDisconnect, if set, run around every session that got
	// a verified identity (after it, on the session's goroutine).
	OnConnect    func(s ssh.Session, id Identity)
	OnDisconnect func(s ssh.Session, id Identity, d time.Duration)
	// Doorkeeper, if set, decides at authentication who may come in (see
	// doorkeeper.go); nil: every key, and guests as Config.AllowGuests says.
	Doorkeeper Doorkeeper
	// Refused, if set, hears every connection or session refused, with why
	// (one of Refusals): for the operator's metrics. It must not block.
	Refused func(why Refusal)
}

// Server is Bivouac's SSH front door.
type Server struct {
	cfg  Config
	deps Deps
	log  *slog.Logger
	srv  *ssh.Server

	hostKeyFP string
	tag       func(secret string) string // how the log names a secret
	limits    *limiter                   // authenticated connections
	gate      *gate                      // connections not authenticated yet
	penalties *penalties                 // addresses whose handshakes stalled or failed
	handlers  inflight
	channels  inflight // session channels not yet closed on both sides
	guesses   *Guesses // wrong reclaim codes by address (see Guesses)
	typing    typingBudgets
	issued    issued // reclaim codes handed out by this process

	noProgramFor sync.Map // ssh.Session → true: Programs returned nil for it
	refusedFor   sync.Map // ssh.Session → why it was refused (Refusal), for the log
	closing      atomic.Bool

	noSessionTimeout time.Duration // see keepAlive

	mu        sync.Mutex
	addr      net.Addr
	listeners map[net.Listener]struct{}
	conns     map[net.Conn]struct{}
}

// New builds the server. It reads the host key now, so a missing or unsafe
// key is an error here rather than at the first connection.
//
// The middleware chain, in the order a session runs through it (wish composes
// its list so the LAST entry runs first, hence the reversed list in the code):
//
//  1. logging: connect/disconnect with duration, refused sessions too;
//  2. recovery: a panic below is logged with its stack and ends only that
//     session;
//  3. caps: a connection that was over the per-IP or global cap when it
//     authenticated is told so and ended (the caps are counted per
//     connection, in authenticated; before that the gate bounds it);
//     3b. doorRefusal: a client Deps.Doorkeeper turned away at
//     authentication (see doorkeeper.go) is told why, in its language, and
//     ended;
//  4. identity: re-verify the key against what auth recorded, or accept the
//     guest login, and store the Identity; anything else is refused. Nothing
//     below runs without a verified identity;
//  5. commands: no PTY → Deps.Command with the command line, or the
//     "needs an interactive terminal" hint when there is no command;
//  6. program: PTY → Deps.Programs, run until the program ends or the
//     session's channel does (see program);
//  7. noProgram: a PTY session Programs had no program for is told so.
func New(cfg Config, deps Deps) (*Server, error) {
	cfg.defaults()
	if cfg.HostKeyPath == "" {
		return nil, errors.New("sshserver: Config.HostKeyPath is required (see hostkeys.Ensure)")
	}
	fp, err := hostkeys.Fingerprint(cfg.HostKeyPath)
	if err != nil {
		return nil, fmt.Errorf("sshserver: %w", err)
	}
	s := &Server{
		cfg:       cfg,
		deps:      deps,
		log:       deps.Log,
		hostKeyFP: fp,
		limits:    newLimiter(cfg.MaxSessions, cfg.MaxPerIP),
		gate:      newGate(cfg.MaxStartups, cfg.MaxStartupsPerIP),
		penalties: newPenalties(nil),
		guesses:   NewGuesses(nil),
		typing:    typingBudgets{perIP: rate.Limit(max(cfg.MaxTypingPerIP, 0))},
		conns:     map[net.Conn]struct{}{},
		listeners: map[net.Listener]struct{}{},

		noSessionTimeout: time.Minute,
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.tag = deps.Tag; s.tag == nil {
		s.tag = logredact.NewTagger().Tag
	}
	opts := []ssh.Option{
		wish.WithAddress(cfg.Addr),
		wish.WithVersion(cfg.Version),
		ssh.HostKeyFile(cfg.HostKeyPath), // not wish.WithHostKeyPath: it would create a key
		wish.WithPublicKeyAuth(s.offeredKey),
		wish.WithIdleTimeout(cfg.IdleTimeout),
		wish.WithMaxTimeout(cfg.MaxTimeout),
		ssh.EmulatePty(), // no kernel PTY per session: /dev/pts is finite
		ssh.WrapConn(s.onConn),
		func(srv *ssh.Server) error {
			srv.ServerConfigCallback = func(ctx ssh.Context) *gossh.ServerConfig {
				return &gossh.ServerConfig{VerifiedPublicKeyCallback: s.keyLogin(ctx),
					PreAuthConnCallback: func(gossh.ServerPreAuthConn) {
						if p, ok := ctx.Value(passageKey{}).(*passage); ok {
							p.keyExchanged()
						}
					}}
			}
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
			srv.RequestHandlers = map[string]ssh.RequestHandler{}     // no port forwarding
			srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{} // no sftp
			srv.ConnectionFailedCallback = func(c net.Conn, err error) {
				s.log.Debug("handshake failed", "remote", c.RemoteAddr().String(), "err", err)
			}
			return nil
		},
		// The LAST entry runs first: see the numbered list above.
		wish.WithMiddleware(
			s.noProgram,   // 7
			s.program,     // 6
			s.commands,    // 5
			s.identity,    // 4
			s.doorRefusal, // 3b
			s.caps,        // 3
			s.recovery,    // 2
			s.logging,     // 1
		),
	}
	switch {
	case deps.Doorkeeper != nil:
		opts = append(opts, wish.WithKeyboardInteractiveAuth(s.keyboardLogin))
	case cfg.AllowGuests:
		opts = append(opts, wish.WithKeyboardInteractiveAuth(s.guestLogin))
	}
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("sshserver: %w", err)
	}
	s.srv = srv
	return s, nil
}

// Guesses is the record of wrong codes by address, shared with the lobby's
// table and campaign codes so that one budget covers every kind of guess.
func (s *Server) Guesses() *Guesses { return s.guesses }

// HostKeyFingerprint is the SHA256 fingerprint of the server's host key,
// for the operator to publish so players can check it on first connect.
func (s *Server) HostKeyFingerprint() string { return s.hostKeyFP }

// Serve accepts connections on l until Shutdown; tests hand it a live
// 127.0.0.1:0 listener. It returns ErrServerClosed after Shutdown.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closing.Load() {
		s.mu.Unlock()
		l.Close()
		return ErrServerClosed
	}
	s.addr = l.Addr()
	s.listeners[l] = struct{}{}
	s.mu.Unlock()
	s.log.Info("listening", "addr", l.Addr().String(), "hostkey", s.hostKeyFP)
	err := s.srv.Serve(l)
	if s.closing.Load() {
		return ErrServerClosed
	}
	return err
}

// ListenAndServe listens on Config.Addr and serves.
func (s *Server) ListenAndServe() error {
	l, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("sshserver: %w", err)
	}
	return s.Serve(l)
}

// Addr is the address being served, or nil before Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Drain stops accepting connections and waits, until ctx ends, for every
// session channel to be closed on both sides: a session that says goodbye
// and ends is then over for its client too (its last words, exit status
// and close arrived) before Shutdown cuts the connections.
func (s *Server) Drain(ctx context.Context) error {
	s.mu.Lock()
	for l := range s.listeners {
		l.Close()
	}
	s.mu.Unlock()
	return s.channels.wait(ctx)
}

// Shutdown stops accepting, closes every connection (mid-handshake ones
// too: their sessions' contexts end, so programs quit and handlers return)
// and waits for the session handlers to finish until ctx is done. It is not
// a drain: players are disconnected at once, game state being durable
// elsewhere. It returns ctx.Err() if handlers were still running at the
// deadline (they are then stuck outside this package's reach).
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing.Store(true) // under mu: Serve and trackConn see it or are seen
	for l := range s.listeners {
		l.Close()
	}
	s.mu.Unlock()
	err := s.srv.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	if werr := s.handlers.wait(ctx); werr != nil {
		return werr
	}
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// trackConn registers (add) or forgets a raw connection for Shutdown. It
// refuses to register once Shutdown has begun.
func (s *Server) trackConn(c net.Conn, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !add {
		delete(s.conns, c)
		return true
	}
	if s.closing.Load() {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

// inflight counts running session handlers; wait may run while handlers
// start and end (unlike sync.WaitGroup).
type inflight struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n drops to 0; nil while n == 0
}

func (f *inflight) add() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.zero = make(chan struct{})
	}
	f.n++
}

func (f *inflight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 {
		close(f.zero)
		f.zero = nil
	}
}

func (f *inflight) wait(ctx context.Context) error {
	f.mu.Lock()
	ch := f.zero
	f.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func fingerprint(k ssh.PublicKey) string { return gossh.FingerprintSHA256(k) }
