package sshserver

import (
	"net"
	"sync"
	"time"
)

// limitedConn throttles what a client may send: a token bucket of burst
// bytes refilled at rate bytes a second. A Read that overdraws the bucket
// returns its data only after the deficit has been paid back, which stalls
// the connection's reader and so pushes back on the client (TCP flow
// control). Typing and pastes of a few screens never notice; a client
// streaming megabytes is slowed to the rate, which bounds the CPU and the
// memory it can cost the server.
type limitedConn struct {
	net.Conn
	rate, burst float64

	mu     sync.Mutex
	tokens float64
	last   time.Time

	closeOnce sync.Once
	closed    chan struct{}
}

func newLimitedConn(c net.Conn, rate, burst int) *limitedConn {
	return &limitedConn{Conn: c, rate: float64(rate), burst: float64(burst),
		tokens: float64(burst), last: time.Now(), closed: make(chan struct{})}
}

func (c *limitedConn) Read(p []byte) (int, error) {
	if max := int(c.burst); len(p) > max {
		p = p[:max]
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		if d := c.charge(n); d > 0 {
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

// charge takes n tokens and returns how long until the bucket is no longer
// in debt.
func (c *limitedConn) charge(n int) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.tokens = min(c.burst, c.tokens+now.Sub(c.last).Seconds()*c.rate)
	c.last = now
	c.tokens -= float64(n)
	if c.tokens >= 0 {
		return 0
	}
	return time.Duration(-c.tokens / c.rate * float64(time.Second))
}

func (c *limitedConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}
