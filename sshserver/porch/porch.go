// Package porch is the SSH door of a server that is still starting: the
// port is bound at once (a port already taken fails the start before
// anything slow, such as joining a cluster, begins), and every session
// that arrives meanwhile is told, in its language, that the server is
// starting, and sent away, instead of hanging in the listen queue. Once
// the server is ready, Handover gives it the listener.
package porch

import (
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/bivouac-ssh/bivouac/sshserver"
)

// MaxVisitors bounds the connections the porch serves at once: a flood
// while the server starts costs at most this many goroutines and
// handshakes; the rest are closed at once.
const MaxVisitors = 64

// visitLimit is how long one visitor may hold the porch (handshake and
// message included): one that stalls cannot keep a slot.
const visitLimit = 10 * time.Second

// Porch serves a listener until Handover.
type Porch struct {
	l     net.Listener
	ssh   *ssh.Server
	slots chan struct{}
	log   *slog.Logger

	mu     sync.Mutex
	handed bool
	conns  chan net.Conn // after Handover: what the server's Accept returns
	failed chan struct{} // closed when the listener fails or is closed
	err    error

	closing sync.Once
	closed  chan struct{} // closed by Close
}

// Open serves l with the porch, with the host key at hostKeyPath (the
// server's own, so that clients see no other key).
func Open(l net.Listener, hostKeyPath string, log *slog.Logger) (*Porch, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Porch{l: l, log: log, slots: make(chan struct{}, MaxVisitors),
		conns: make(chan net.Conn), failed: make(chan struct{}), closed: make(chan struct{})}
	p.ssh = &ssh.Server{
		Handler:     p.visit,
		IdleTimeout: visitLimit,
		MaxTimeout:  visitLimit,
		// Sessions only: no forwarding, no subsystems.
		ChannelHandlers:   map[string]ssh.ChannelHandler{"session": ssh.DefaultSessionHandler},
		RequestHandlers:   map[string]ssh.RequestHandler{},
		SubsystemHandlers: map[string]ssh.SubsystemHandler{},
	}
	for _, o := range []ssh.Option{ssh.HostKeyFile(hostKeyPath), ssh.EmulatePty()} {
		if err := p.ssh.SetOption(o); err != nil {
			return nil, err
		}
	}
	go p.accept()
	return p, nil
}

// visit tells the session the server is starting and ends it.
func (p *Porch) visit(s ssh.Session) {
	sshserver.Refuse(s, sshserver.Printer(s).T("ssh.porch.starting"))
}

// accept takes every connection: to the porch before Handover, to the
// server after.
func (p *Porch) accept() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			p.mu.Lock()
			p.err = err
			p.mu.Unlock()
			close(p.failed)
			return
		}
		p.mu.Lock()
		handed := p.handed
		p.mu.Unlock()
		if handed {
			select {
			case p.conns <- c:
			case <-p.closed:
				_ = c.Close()
			}
			continue
		}
		select {
		case p.slots <- struct{}{}:
			go func() {
				defer func() { <-p.slots }()
				p.ssh.HandleConn(c)
			}()
		default:
			p.log.Warn("too many sessions while the server starts; closing one", "remote", c.RemoteAddr().String())
			_ = c.Close()
		}
	}
}

// Handover stops the porch answering and returns the listener the server
// serves from now on. Sessions the porch is answering finish on their own.
func (p *Porch) Handover() net.Listener {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handed = true
	return handed{p}
}

// Close stops the porch and closes the listener: the server did not start.
func (p *Porch) Close() error {
	p.closing.Do(func() { close(p.closed) })
	return p.l.Close()
}

// handed is the listener after Handover.
type handed struct{ p *Porch }

func (h handed) Accept() (net.Conn, error) {
	select {
	case c := <-h.p.conns:
		return c, nil
	case <-h.p.failed:
		h.p.mu.Lock()
		defer h.p.mu.Unlock()
		if errors.Is(h.p.err, net.ErrClosed) {
			return nil, net.ErrClosed
		}
		return nil, h.p.err
	}
}

func (h handed) Close() error   { return h.p.Close() }
func (h handed) Addr() net.Addr { return h.p.l.Addr() }
