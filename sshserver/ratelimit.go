package sshserver

import (
	"bytes"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Two budgets bound what a client may send.
//
// The connection's bytes (limitedConn) are slowed, never refused: a Read
// that overdraws the bucket returns only after the deficit is paid back,
// which pushes back on the client through TCP flow control. It bounds what
// the SSH layer itself decrypts.
//
// The keys a player types (typingBudget) are what the program has to
// handle, and cost far more per byte; they are bounded by what a person can
// type plus a pasted chat line, and what is over is dropped, not delayed (a
// flood must not queue up behind the player's next real key). The player is
// told (Terminal.Dropped). This budget is per session and per address, and
// the address's budget outlives the connection: reconnecting does not
// refill it.

// limitedConn throttles a connection's input: bytes beyond the limiter's
// burst wait until its rate has paid for them.
type limitedConn struct {
	net.Conn
	lim    *rate.Limiter
	reads  atomic.Uint64 // reads that brought bytes: the client was heard (keepalives)
	spoke  atomic.Bool   // a line end came: the client's version line (see gate)
	spoken atomic.Int64  // when it came (unix ns)

	closeOnce sync.Once
	closed    chan struct{}
}

func newLimitedConn(c net.Conn, bytesPerSec, burst int) *limitedConn {
	return &limitedConn{Conn: c, lim: rate.NewLimiter(rate.Limit(bytesPerSec), burst), closed: make(chan struct{})}
}

func (c *limitedConn) Read(p []byte) (int, error) {
	if b := c.lim.Burst(); len(p) > b {
		p = p[:b] // a reservation can never be larger than the burst
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.reads.Add(1)
		// The SSH layer reads the version line a byte at a time, so this
		// looks at one byte a read until the line is in, then never again.
		if !c.spoke.Load() && bytes.IndexByte(p[:n], '\n') >= 0 {
			c.spoken.Store(time.Now().UnixNano())
			c.spoke.Store(true)
		}
		if d := c.lim.ReserveN(time.Now(), n).Delay(); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-c.closed:
				t.Stop()
			}
		}
	}
	return n, err
}

// spokeAt is when the client's version line came (zero: not yet).
func (c *limitedConn) spokeAt() time.Time {
	if !c.spoke.Load() {
		return time.Time{}
	}
	return time.Unix(0, c.spoken.Load())
}

func (c *limitedConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// Typing budgets: a fast typist sends 15 keys a second of up to 6 bytes
// (arrows and function keys are escape sequences); a chat line of 200
// runes pasted at once is up to 800 bytes of UTF-8 plus the paste markers.
const (
	typingRate  = 256     // bytes a second, one session
	typingBurst = 2 << 10 // bytes at once, one session: a pasted chat line and then some

	// An address may type for a few sessions at once (Config.MaxTypingPerIP).
	typingBurstPerIP = 8 << 10

	typingForget  = 10 * time.Minute // an address quiet this long starts afresh
	typingEntries = 10000            // addresses remembered at most
)

// typingBudgets holds each address's typing budget across its connections.
type typingBudgets struct {
	perIP rate.Limit // 0: no budget per address

	mu sync.Mutex
	by map[string]*addrTyping
}

type addrTyping struct {
	lim  *rate.Limiter
	last time.Time
}

// forAddr returns the address's limiter (nil when there is no budget per
// address), creating it with a full bucket if the address is new or was
// quiet long enough to be forgotten.
func (b *typingBudgets) forAddr(key string, now time.Time) *rate.Limiter {
	if b.perIP <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.by == nil {
		b.by = map[string]*addrTyping{}
	}
	a := b.by[key]
	if a == nil {
		if len(b.by) >= typingEntries {
			b.sweep(now)
		}
		a = &addrTyping{lim: rate.NewLimiter(b.perIP, typingBurstPerIP)}
		b.by[key] = a
	}
	a.last = now
	return a.lim
}

// sweep forgets the addresses quiet for typingForget, or else one of them
// at random when every one is recent (the map stays bounded).
func (b *typingBudgets) sweep(now time.Time) {
	for k, a := range b.by {
		if now.Sub(a.last) > typingForget {
			delete(b.by, k)
		}
	}
	for k := range b.by {
		if len(b.by) < typingEntries {
			break
		}
		delete(b.by, k)
	}
}

// typingBudget is a session's keyboard with its budget applied: a read
// the session's or the address's budget cannot pay for is dropped whole
// (keys are never cut in the middle of an escape sequence), and dropped
// says so, at most once until the program looks.
type typingBudget struct {
	r             io.Reader
	session, addr *rate.Limiter
	dropped       chan struct{}
	lost          atomic.Int64 // bytes dropped in all
}

func newTypingBudget(r io.Reader, addr *rate.Limiter) *typingBudget {
	return &typingBudget{r: r, session: rate.NewLimiter(typingRate, typingBurst), addr: addr,
		dropped: make(chan struct{}, 1)}
}

func (t *typingBudget) Read(p []byte) (int, error) {
	for {
		n, err := t.r.Read(p)
		if n == 0 || t.pay(n) {
			return n, err
		}
		t.lost.Add(int64(n))
		select {
		case t.dropped <- struct{}{}:
		default:
		}
		if err != nil {
			return 0, err
		}
	}
}

// pay takes n bytes from both budgets, or from neither.
func (t *typingBudget) pay(n int) bool {
	now := time.Now()
	s := t.session.ReserveN(now, n)
	if !s.OK() || s.DelayFrom(now) > 0 {
		s.CancelAt(now)
		return false
	}
	if t.addr != nil {
		if a := t.addr.ReserveN(now, n); !a.OK() || a.DelayFrom(now) > 0 {
			a.CancelAt(now)
			s.CancelAt(now) // the session's share goes back
			return false
		}
	}
	return true
}
