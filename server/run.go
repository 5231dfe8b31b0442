package server

import (
	"context"
	"errors"
	"expvar"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/sshserver/porch"
)

// Run is the server as a process (`bivouac serve`): the port first, so
// that one already taken fails at once rather than after joining a
// cluster, with the porch answering it while the store opens; then the
// banner (where it listens, its host key, the join lines), the
// operator's endpoints, and the access files read again on SIGHUP. The
// start and the stop are log records (a log collector reads them); out
// gets the same for a person (io.Discard where nobody reads it). It
// serves until ctx ends, then tells every player and shuts down within
// 5 s; a drain (`bivouac drain`) stops it too, once the tables are
// handed over. If it does not start, or stops on an error, out says why
// in the operator's words (the log has the error).
func Run(ctx context.Context, cfg Config, out io.Writer) error {
	err := runServer(ctx, cfg, out)
	if err != nil {
		fmt.Fprintln(out, i18n.For(cfg.Lang).Msg(failureWords(err, cfg)))
	}
	return err
}

// failureWords is why the server did not start, or stopped, as its
// operator reads it: the common causes by name, any other in Go's words.
func failureWords(err error, cfg Config) game.Msg {
	dir := game.Text("Dir", cfg.DataDir)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return game.M("op.start.port_taken", game.Text("Addr", cfg.Addr))
	case errors.Is(err, persistence.ErrInUse):
		return game.M("op.start.in_use", dir)
	case errors.Is(err, persistence.ErrNotBivouac):
		return game.M("op.start.not_bivouac", dir)
	case errors.Is(err, persistence.ErrCorrupt):
		return game.M("op.start.corrupt", dir)
	case errors.Is(err, persistence.ErrSchemaTooNew):
		return game.M("op.start.too_new", dir)
	case errors.Is(err, node.ErrRoutesInClear):
		return game.M("op.start.routes_in_clear")
	}
	return game.M("op.start.failed", game.Text("Why", err.Error()))
}

// runServer is Run but for what it says of a failure.
func runServer(ctx context.Context, cfg Config, out io.Writer) error {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	p := i18n.For(cfg.Lang)
	if cfg.PprofAddr != "" {
		stop, err := servePprof(cfg.PprofAddr)
		if err != nil {
			return err
		}
		defer stop()
	}
	// Sessions that come while the store opens hear the server is
	// starting (porch) rather than hang.
	l, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	door, err := openPorch(l, cfg.DataDir, cfg.Log)
	if err != nil {
		l.Close()
		return err
	}
	srv, err := newWithin(ctx, cfg)
	if errors.Is(err, errStopped) {
		door.Close()
		cfg.Log.Info("stopped while starting")
		fmt.Fprintln(out, p.T("op.run.stopped_starting"))
		return nil
	}
	if err != nil {
		door.Close()
		return err
	}
	stopHUP := reloadOnHangup(srv.ReloadAccess)
	defer stopHUP()
	notes := srv.StartNotes()
	if cfg.MetricsAddr != "" {
		stop, bound, err := serveOps(cfg.MetricsAddr, srv.OpsHandler())
		if err != nil {
			door.Close()
			srv.Close()
			return err
		}
		defer stop()
		if warnIfExposed(cfg.Log, bound) {
			notes = append(notes, game.M("op.note.metrics_open", game.Text("Addr", bound.String())))
		}
		cfg.Log.Info("metrics and health checks", "addr", cfg.MetricsAddr, "paths", []string{"/metrics", "/healthz", "/readyz"})
		fmt.Fprintln(out, p.T("op.run.metrics", game.Text("Addr", cfg.MetricsAddr)))
	}
	// Handed over before "listening" is said: a player who connects the
	// moment the operator reads it reaches the server, not the porch.
	listener := door.Handover()
	banner(out, p, cfg.Log, srv, l.Addr(), cfg.PublicHost)
	for _, n := range notes { // each in the log as well, as a warning
		fmt.Fprintln(out, p.Msg(n))
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(listener) }()
	select {
	case err := <-served:
		door.Close()
		if srv.Draining() { // `bivouac drain`: the drain stops the server
			<-srv.Drained()
			cfg.Log.Info("drained: the tables run on the other nodes; stopped")
			fmt.Fprintln(out, p.T("op.run.drained"))
			return nil
		}
		srv.Close()
		return err
	case <-ctx.Done():
	}
	if srv.Draining() {
		cfg.Log.Info("draining: waiting for the tables to be handed over")
		fmt.Fprintln(out, p.T("op.run.draining"))
		<-srv.Drained()
		cfg.Log.Info("drained; stopped")
		return nil
	}
	cfg.Log.Info("shutting down: telling players, saving, closing")
	fmt.Fprintln(out, p.T("op.run.shutting_down"))
	err = srv.StopWithin(shutdownWithin)
	if err != nil {
		cfg.Log.Error("shut down with an error", "err", err)
	} else {
		cfg.Log.Info("stopped")
	}
	return err
}

// shutdownWithin bounds a stop on SIGINT or SIGTERM (README: "exit within
// 5 seconds"): every player told, what can be saved saved, and what
// could not said in the log.
const shutdownWithin = 5 * time.Second

// StopWithin shuts the server down (Shutdown) and returns within d
// whatever is left: a step that has not finished by then (a cluster node
// closing its NATS server on a loaded machine, the last node of a cluster
// letting go of leases nobody can store) is said in the log and given
// up. The process may exit then and lose nothing a kill -9 would not,
// which is nothing: every move is stored before it is played.
func (s *Server) StopWithin(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Shutdown(ctx) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		s.log.Warn("the stop did not finish within its bound: giving up what is left; every move accepted was stored before it was played", "bound", d)
		return nil
	}
}

// banner tells the operator where the server listens, its host key's
// fingerprint (for players to check), and the lines friends join with:
// on out for a person in their language (p), and as one log record.
func banner(out io.Writer, p *i18n.Printer, log *slog.Logger, srv *Server, addr net.Addr, publicHost string) {
	port := "2222"
	if _, p, err := net.SplitHostPort(addr.String()); err == nil {
		port = p
	}
	var join []string
	for _, host := range joinline.Hosts(addr.String(), publicHost) {
		join = append(join, joinline.Command(port, host))
	}
	log.Info("ready", "addr", addr.String(), "join", join) // sshserver logs its address and host key as it listens
	fmt.Fprintln(out, p.T("op.run.listening", game.Text("Addr", addr.String())))
	fmt.Fprintln(out, p.T("op.run.fingerprint", game.Text("Fingerprint", srv.HostKeyFingerprint())))
	// The ssh lines one under the other, each label ending in the column
	// the first one ends in.
	first, more := p.T("op.run.join"), p.T("op.run.join_or")
	width := max(utf8.RuneCountInString(first), utf8.RuneCountInString(more))
	for i, line := range join {
		label := first
		if i > 0 {
			label = more
		}
		fmt.Fprintf(out, "%s%s %s\n", strings.Repeat(" ", width-utf8.RuneCountInString(label)), label, line)
	}
}

// reloadOnHangup calls reload on every SIGHUP until stop is called: the
// operator's key files are read again at once instead of within a poll.
func reloadOnHangup(reload func()) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				reload()
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(hup); close(done) }
}

// servePprof serves Go's profiles on a loopback address until stop is
// called. Never on another address: profiles show the server's insides.
func servePprof(addr string) (stop func(), err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--pprof %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("--pprof %q: only a loopback address such as 127.0.0.1:6060", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	// Who waits on whom, for the mutex and block profiles: one lock
	// contention in 100, and every wait of a millisecond or more (shorter
	// ones in proportion). Both cost a little on every wait, so only a
	// server being measured pays for them.
	runtime.SetMutexProfileFraction(100)
	runtime.SetBlockProfileRate(int(time.Millisecond))
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("/debug/vars", expvar.Handler()) // exact allocation counts (memstats) for bivouac-load -budgets
	ps := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = ps.Serve(l) }()
	return func() { ps.Close() }, nil
}

// serveOps serves the operator's endpoints (metrics, health) on addr
// until stop is called, and says where it listens. Any address is allowed
// (a Prometheus on another machine of a private network scrapes it), with
// a warning off loopback (warnIfExposed).
func serveOps(addr string, h http.Handler) (stop func(), bound net.Addr, err error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() { _ = hs.Serve(l) }()
	return func() { hs.Close() }, l.Addr(), nil
}

// warnIfExposed warns at start when the operator's listener is not on
// loopback (":9464" listens on every interface): the metrics say how busy
// the server is and who plays how much, and --pprof, which says more,
// refuses anything but loopback. A private network is the operator's
// call, so it is a warning, naming the flag; it reports whether it warned.
func warnIfExposed(log *slog.Logger, bound net.Addr) bool {
	tcp, ok := bound.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return false
	}
	where := "an address other machines may reach"
	if tcp.IP.IsUnspecified() {
		where = "every interface"
	}
	log.Warn("--metrics-addr listens on "+where+": keep the metrics on loopback (127.0.0.1:9464) or a private network",
		"flag", "--metrics-addr", "addr", bound.String())
	return true
}

// openPorch answers on l while the server starts, with its host key.
func openPorch(l net.Listener, data string, log *slog.Logger) (*porch.Porch, error) {
	key, _, err := hostkeys.Ensure(data)
	if err != nil {
		return nil, err
	}
	return porch.Open(l, key, log)
}

// errStopped: the process was told to stop before the server was ready.
var errStopped = errors.New("stopped while starting")

// newWithin is New, given up on when ctx ends first: a cluster node may
// wait minutes for its peers (node.Config.ReadyWithin), and a stop asked
// meanwhile must not wait with it. The half-started server is closed when
// New returns; the process is exiting by then, which the store survives
// as it survives kill -9.
func newWithin(ctx context.Context, cfg Config) (*Server, error) {
	type started struct {
		srv *Server
		err error
	}
	done := make(chan started, 1)
	go func() {
		srv, err := New(cfg)
		done <- started{srv, err}
	}()
	select {
	case st := <-done:
		return st.srv, st.err
	case <-ctx.Done():
		go func() {
			if st := <-done; st.srv != nil {
				st.srv.Close()
			}
		}()
		return nil, errStopped
	}
}
