package sshserver

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/words"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Admission of a connection happens twice.
//
// At accept, the connection enters the gate (startups.go): it may wait to
// authenticate if the budget of unauthenticated connections allows, per
// address and in all. It must send its version line within
// Config.VersionTimeout and authenticate within Config.HandshakeTimeout.
//
// Once authenticated, it counts against the player caps (limiter): in all
// and per address. A connection within the caps is admitted and holds its
// place until it closes. One over a cap is not cut at once: its session
// may start so the player can be told why (the caps middleware prints the
// reason), but it holds no place, is closed after refusedLifetime whatever
// happens, and only a few such refused connections may exist per address
// and in all; past those the connection is closed without a word. Only
// authenticated connections are counted, so connections that never log in
// cannot take a player's place.
const (
	refusedPerIP    = 2
	refusedTotal    = 32
	refusedLifetime = 10 * time.Second
)

type verdict int

const (
	admitted verdict = iota
	refusedIP
	refusedFull
	dropped
)

type limiter struct {
	maxTotal, maxPerIP int

	mu        sync.Mutex
	total     int
	perIP     map[string]int
	refused   int
	refusedBy map[string]int
}

func newLimiter(maxTotal, maxPerIP int) *limiter {
	return &limiter{maxTotal: maxTotal, maxPerIP: maxPerIP,
		perIP: map[string]int{}, refusedBy: map[string]int{}}
}

// admit decides for one new connection from the address group key and
// returns a release function to call exactly once when it closes (nil when
// dropped).
func (l *limiter) admit(key string) (verdict, func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v := admitted
	switch {
	case l.maxPerIP > 0 && l.perIP[key] >= l.maxPerIP:
		v = refusedIP
	case l.maxTotal > 0 && l.total >= l.maxTotal:
		v = refusedFull
	}
	if v == admitted {
		l.total++
		l.perIP[key]++
		return v, sync.OnceFunc(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.total--
			if l.perIP[key]--; l.perIP[key] <= 0 {
				delete(l.perIP, key)
			}
		})
	}
	if l.refused >= refusedTotal || l.refusedBy[key] >= refusedPerIP {
		return dropped, nil
	}
	l.refused++
	l.refusedBy[key]++
	return v, sync.OnceFunc(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.refused--
		if l.refusedBy[key]--; l.refusedBy[key] <= 0 {
			delete(l.refusedBy, key)
		}
	})
}

// full reports whether the cap in all is reached.
func (l *limiter) full() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.maxTotal > 0 && l.total >= l.maxTotal
}

// counts returns the admitted connections in all and for one address group.
func (l *limiter) counts(key string) (total, ip int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total, l.perIP[key]
}

// ipKey groups addresses for the per-IP cap: one IPv4 address, or one IPv6
// /64 (a single host usually has a whole /64 to pick addresses from).
func ipKey(addr net.Addr) string { return hostKey(addr.String()) }

// AddressGroup is the group of addresses a client's address belongs to for
// every per-address budget: its IPv4 address, or its IPv6 /64, without the
// port ("192.0.2.1:5678" → "192.0.2.1").
func AddressGroup(addr string) string { return hostKey(addr) }

// hostKey is ipKey for an address written out: "1.2.3.4", "1.2.3.4:5678",
// "[2001:db8::1]:22" or "2001:db8::1".
func hostKey(s string) string {
	if h, _, err := net.SplitHostPort(s); err == nil {
		s = h
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return s
	}
	ip = ip.Unmap()
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

type refusalKey struct{}

// capRefusal is why a connection over a player cap was refused, told once
// its session exists, in the session's language.
type capRefusal struct {
	why Refusal
	msg words.Msg
}

// refusalOf returns why a connection was refused at authentication (zero
// if it was not).
func refusalOf(ctx context.Context) capRefusal {
	r, _ := ctx.Value(refusalKey{}).(capRefusal)
	return r
}

type channelCountKey struct{}

// typingKey holds the connection's address's typing limiter (nil: none).
type typingKey struct{}

// passageKey holds the connection's *passage.
type passageKey struct{}

// passage is one connection's way from accepted to authenticated, and the
// places it holds on the way.
type passage struct {
	key     string
	conn    *limitedConn
	startup *startup
	began   time.Time
	kex     atomic.Int64 // when its key exchange was done (unix ns; 0: not yet)

	mu       sync.Mutex
	authed   bool
	closed   bool
	stalled  bool        // closed by us at a handshake deadline
	release  func()      // the player's place (nil before authentication)
	refused  *time.Timer // ends a connection refused by the caps
	deadline *time.Timer // the handshake's next deadline (handshakeDeadline)
}

// done gives back everything the connection holds; it closed. It reports
// whether the connection ended on its way in by its client's doing: it
// closed before it authenticated, though it had spoken and was neither
// stalled nor put out of the gate by us.
func (p *passage) done(g *gate) (abandoned bool) {
	evicted := g.leave(p.startup)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.release != nil {
		p.release()
	}
	if p.refused != nil {
		p.refused.Stop()
	}
	if p.deadline != nil {
		p.deadline.Stop()
	}
	return !p.authed && !p.stalled && !evicted && p.conn.spoke.Load()
}

// onConn is the ssh.Server ConnCallback: every TCP connection passes here
// before its handshake. A connection from an address that is kept out
// (penalties) is closed at once; any other enters the gate of
// unauthenticated connections, which always lets it in (another, from the
// most crowded address, may give its place up), and gets its handshake's
// deadlines. The connection is registered so Shutdown can close it even
// mid-handshake.
func (s *Server) onConn(ctx ssh.Context, raw net.Conn) net.Conn {
	// Everything below closes the wrapper, which also wakes a throttled Read.
	conn := newLimitedConn(raw, s.cfg.MaxInputRate, s.cfg.MaxInputBurst)
	if !s.trackConn(conn, true) {
		return nil // shutting down
	}
	key := ipKey(conn.RemoteAddr())
	if left := s.penalties.keptOut(key); left > 0 {
		s.trackConn(conn, false)
		s.refused(RefusedPenalty)
		s.log.Info("connection closed: its address is kept out after stalled or failed handshakes",
			"remote", conn.RemoteAddr().String(), "refused", RefusedPenalty, "for", left.Round(time.Second))
		return nil
	}
	st, evicted := s.gate.enter(key, conn)
	if evicted != nil {
		evicted.conn.Close() // its goroutine gives the rest back
		s.refused(RefusedGate)
		s.log.Info("connection closed: its place went to a newcomer (too many connections logging in)",
			"remote", evicted.conn.RemoteAddr().String(), "refused", RefusedGate)
	}
	p := &passage{key: key, conn: conn, startup: st, began: time.Now()}
	ctx.SetValue(passageKey{}, p)
	ctx.SetValue(channelCountKey{}, new(atomic.Int32))
	ctx.SetValue(rawChannelKey{}, new(rawChannelSlot))
	p.deadline = time.AfterFunc(time.Hour, func() { s.handshakeDeadline(p) })
	if due, _ := s.handshakeDue(p); !due.IsZero() {
		p.deadline.Reset(time.Until(due))
	} else {
		p.deadline.Stop()
	}
	if err := watchForVanishing(raw, s.cfg.VanishedAfter); err != nil {
		s.log.Warn("TCP keepalives not set: a vanished client is found by server keepalives only",
			"remote", conn.RemoteAddr().String(), "err", err)
	}
	if s.cfg.KeepAliveInterval > 0 {
		s.keepAlive(ctx, conn)
	}
	// The ssh package cancels ctx when the connection closes, on every path.
	context.AfterFunc(ctx, func() {
		if p.done(s.gate) && !s.closing.Load() {
			s.penalties.add(key, PenaltyNoAuth)
		}
		s.trackConn(conn, false)
	})
	return conn
}

// handshakeDeadline runs at each deadline of a connection on its way in
// (LoginGraceTime in OpenSSH's words, in three steps): its version line
// within VersionTimeout of accept, the key exchange done within KexTimeout
// of the version line, and authentication within HandshakeTimeout of
// accept. A connection past one is closed, and its address owes
// PenaltyStalled; one in time is looked at again at its next deadline.
func (s *Server) handshakeDeadline(p *passage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.authed || p.closed {
		return
	}
	now := time.Now()
	due, stage := s.handshakeDue(p)
	if due.IsZero() {
		return // no deadline is set for this step or any later one
	}
	if now.Before(due) {
		p.deadline.Reset(due.Sub(now))
		return
	}
	p.stalled = true
	s.penalties.add(p.key, PenaltyStalled)
	s.refused(RefusedStalled)
	s.log.Info("handshake timed out: "+stage+" in time", "remote", p.conn.RemoteAddr().String(),
		"refused", RefusedStalled, "after", now.Sub(p.began).Round(time.Millisecond))
	p.conn.Close()
}

// handshakeDue is the passage's next deadline and the step it is for
// (zero: none; a timeout of 0 is off).
func (s *Server) handshakeDue(p *passage) (time.Time, string) {
	var due time.Time
	stage := ""
	at := func(from time.Time, d time.Duration, what string) {
		if d > 0 && !from.IsZero() && (due.IsZero() || from.Add(d).Before(due)) {
			due, stage = from.Add(d), what
		}
	}
	spoke, kex := p.conn.spokeAt(), p.kex.Load()
	switch {
	case spoke.IsZero():
		at(p.began, s.cfg.VersionTimeout, "no version line")
	case kex == 0:
		at(spoke, s.cfg.KexTimeout, "no key exchange")
	}
	at(p.began, s.cfg.HandshakeTimeout, "not authenticated")
	return due, stage
}

// keyExchanged notes that the connection's key exchange is done: its client
// asked to authenticate (every client starts with "none").
func (p *passage) keyExchanged() {
	p.kex.CompareAndSwap(0, time.Now().UnixNano())
}

// authenticated runs when a connection has proved who it is (a verified
// key, or a guest login): it leaves the gate and takes a player's place,
// within the caps or refused by them (see limiter). Every successful
// authentication passes here and nowhere else, so a check of who may come
// in belongs here, before the place is taken. False: the connection is
// refused (and closed when the refusal is final).
func (s *Server) authenticated(ctx ssh.Context) bool {
	p, _ := ctx.Value(passageKey{}).(*passage)
	if p == nil {
		return false // every connection comes through onConn
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.authed || p.closed {
		return p.authed && !p.closed
	}
	s.gate.leave(p.startup)
	p.deadline.Stop()
	v, release := s.limits.admit(p.key)
	why := RefusedPerAddress
	if v == refusedFull || (v == dropped && s.limits.full()) {
		why = RefusedFull
	}
	if v == dropped {
		s.refused(why)
		s.log.Warn("connection dropped: too many refused connections",
			"remote", p.conn.RemoteAddr().String(), "refused", why)
		p.conn.Close()
		return false
	}
	p.authed, p.release = true, release
	// Only a player's address gets a typing budget remembered: connections
	// that never log in must not fill (and sweep) that table.
	ctx.SetValue(typingKey{}, s.typing.forAddr(p.key, time.Now()))
	switch v {
	case refusedIP:
		ctx.SetValue(refusalKey{}, capRefusal{why, words.M("ssh.too_many_from_ip", words.Num("N", s.cfg.MaxPerIP))})
	case refusedFull:
		ctx.SetValue(refusalKey{}, capRefusal{why, words.M("ssh.full", words.Num("N", s.cfg.MaxSessions))})
	}
	if v != admitted {
		p.refused = time.AfterFunc(refusedLifetime, func() { p.conn.Close() })
	}
	return true
}

// sessionChannel wraps the default "session" channel handler with a cap on
// simultaneous sessions per connection, so one client opening hundreds of
// channels gets ResourceShortage instead of hundreds of goroutines.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	n, _ := ctx.Value(channelCountKey{}).(*atomic.Int32)
	if n != nil {
		if n.Add(1) > int32(s.cfg.MaxChannelsPerConn) {
			n.Add(-1)
			_ = newChan.Reject(gossh.ResourceShortage, "too many sessions on one connection")
			return
		}
		defer n.Add(-1)
	}
	s.channels.add()
	defer s.channels.done() // the channel is closed on both sides: see Drain
	ssh.DefaultSessionHandler(srv, conn, earlyResizeFilter{newChan, ctx}, ctx)
}

// earlyResizeFilter drops window-change requests that arrive before the
// session's shell or command starts. The ssh package hands each one to a
// one-slot channel that already holds the PTY's first size and that nobody
// reads until the handler runs, so a single early resize would block the
// session's request loop for good: the shell request behind it never gets
// an answer and the goroutine outlives the connection. (The dropped size is
// stale by the time the program starts; the next resize corrects it.)
//
// It also declines agent forwarding, and env requests for variables we do
// not read (or too many, or too long): the ssh package keeps each one for the
// session's life, so they would be memory on request. And it notes the
// accepted channel for RawOutput.
type earlyResizeFilter struct {
	gossh.NewChannel
	ctx ssh.Context
}

func (f earlyResizeFilter) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	if slot, ok := f.ctx.Value(rawChannelKey{}).(*rawChannelSlot); ok {
		slot.accepted(ch)
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		started := false
		envs := 0
		for req := range reqs {
			switch req.Type {
			case "shell", "exec", "subsystem":
				started = true
			case "window-change":
				if !started {
					decline(req)
					continue
				}
			case "auth-agent-req@openssh.com":
				decline(req) // we use no agent: say so rather than pretend
				continue
			case "env":
				if envs >= maxEnvs || !wantedEnv(req.Payload) {
					decline(req) // the ssh package would keep every one for the session's life
					continue
				}
				envs++
			}
			out <- req
		}
	}()
	return ch, out, nil
}

// decline answers a request with no, if an answer is wanted.
func decline(req *gossh.Request) {
	if req.WantReply {
		_ = req.Reply(false, nil)
	}
}

// Env requests kept: only variables Bivouac reads, each short, a few per
// session. Anything else is declined and forgotten.
const (
	maxEnvs     = 16
	maxEnvValue = 256
)

// wantedEnv reports whether an env request's payload names a variable we
// use, with a value of a sane size.
func wantedEnv(payload []byte) bool {
	var kv struct{ Key, Value string }
	if err := gossh.Unmarshal(payload, &kv); err != nil || len(kv.Value) > maxEnvValue {
		return false
	}
	switch kv.Key {
	case "TERM", "LANG", "NO_COLOR", "COLORTERM":
		return true
	}
	return len(kv.Key) <= 64 && (strings.HasPrefix(kv.Key, "LC_") || strings.HasPrefix(kv.Key, "BIVOUAC_"))
}

// keepAlive asks the client whether it is there when nothing came from it
// for KeepAliveInterval, and closes the connection when KeepAliveCountMax
// requests in a row went unanswered. A client heard from in the meantime
// is not asked: at 10,000 players a round every 30 s was 333 requests a
// second, each a goroutine and a packet each way that allocate (and pay
// the collector's assist floor while it marks), for players whose own
// keys already said they were there. At most one request is outstanding;
// its goroutine ends when the answer comes or the connection closes.
// Between requests nothing waits: a runtime timer calls tick, so an idle
// connection has no keepalive goroutine (10,000 of them were 10,000
// sleeping stacks).
//
// Since answered keepalives are traffic that keeps IdleTimeout away, it also
// closes a connection that has had no session open for noSessionTimeout
// (`ssh -N`, or a client that only tried port forwarding): it would
// otherwise hold a connection slot for MaxTimeout.
func (s *Server) keepAlive(ctx ssh.Context, raw net.Conn) {
	k := &keeper{s: s, ctx: ctx, raw: raw, lastSession: time.Now()}
	k.heard, _ = raw.(*limitedConn)
	k.sessions, _ = ctx.Value(channelCountKey{}).(*atomic.Int32)
	k.timer = time.AfterFunc(onKeepAliveBeat(s.cfg.KeepAliveInterval), k.tick)
	context.AfterFunc(ctx, func() { k.timer.Stop() })
}

// keepAliveBeat is the grid every connection's keepalive rounds fall on.
// Ten thousand idle connections asked every 30 s were 333 rounds a second,
// each waking the idle server on its own: 2.0% of a core of the 2.7% that
// 10,000 idle players cost. On the beat, the rounds due in the same second
// run together, and the server wakes once a second for all of them.
const keepAliveBeat = time.Second

// onKeepAliveBeat is how long from now until the first beat at least d
// away (an interval shorter than the beat, in tests, is its own beat).
func onKeepAliveBeat(d time.Duration) time.Duration {
	beat := min(keepAliveBeat, d)
	now := time.Now()
	return now.Add(d + beat - 1).Truncate(beat).Sub(now)
}

// keeper is one connection's keepalive state. Only tick uses it, and
// ticks never overlap: each one sets the timer for the next as it ends.
type keeper struct {
	s           *Server
	ctx         ssh.Context
	raw         net.Conn
	timer       *time.Timer
	sessions    *atomic.Int32
	answered    chan struct{} // nil when no request is outstanding
	misses      int
	heard       *limitedConn // counts the client's reads (nil: always ask)
	lastReads   uint64       // heard's count at the last round
	lastSession time.Time
}

func (k *keeper) tick() {
	if k.ctx.Err() != nil {
		return
	}
	if k.check() {
		k.timer.Reset(onKeepAliveBeat(k.s.cfg.KeepAliveInterval))
	}
}

// check does one keepalive round; false when the connection was closed.
func (k *keeper) check() bool {
	s := k.s
	conn, ok := k.ctx.Value(ssh.ContextKeyConn).(gossh.Conn)
	if !ok {
		return true // still in the handshake: HandshakeTimeout's business
	}
	if k.sessions != nil && k.sessions.Load() > 0 {
		k.lastSession = time.Now()
	} else if time.Since(k.lastSession) > s.noSessionTimeout {
		s.log.Info("connection without a session closed", "remote", k.raw.RemoteAddr().String())
		k.raw.Close()
		return false
	}
	if k.heard != nil {
		if n := k.heard.reads.Load(); n != k.lastReads {
			// Something came from the client since the last round (its
			// answer to the last request counts too): it is there.
			k.lastReads, k.answered, k.misses = n, nil, 0
			return true
		}
	}
	if k.answered != nil {
		select {
		case <-k.answered:
			k.answered, k.misses = nil, 0
		default:
			if k.misses++; k.misses >= s.cfg.KeepAliveCountMax {
				s.log.Info("client stopped answering keepalives", "remote", k.raw.RemoteAddr().String(),
					"unanswered", k.misses)
				k.raw.Close()
				return false
			}
			return true
		}
	}
	k.answered = make(chan struct{})
	go func(done chan struct{}) {
		if _, _, err := conn.SendRequest("keepalive@openssh.com", true, nil); err == nil {
			close(done) // any reply, even "unsupported", means the client is alive
		}
	}(k.answered)
	return true
}
