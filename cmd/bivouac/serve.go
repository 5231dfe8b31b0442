package main

import (
	"context"
	"errors"
	"expvar"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/server"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/porch"
)

// runServe is `bivouac serve`: flags and environment to a server.Config,
// then serve until a signal, and shut down within 5 seconds.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("BIVOUAC_ADDR", ":2222"), "listen address (env BIVOUAC_ADDR)")
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "data directory: host key and database (env BIVOUAC_DATA)")
	guests := fs.Bool("guests", true, "let players without an SSH key in as guests")
	debugLog := fs.Bool("debug", false, "log debug detail")
	maxSessions := fs.Int("max-sessions", envInt("BIVOUAC_MAX_SESSIONS", 2000), "connections in all (env BIVOUAC_MAX_SESSIONS)")
	maxPerIP := fs.Int("max-per-ip", envInt("BIVOUAC_MAX_PER_IP", 16), "connections from one address (env BIVOUAC_MAX_PER_IP)")
	maxStartups := fs.String("max-startups", envOr("BIVOUAC_MAX_STARTUPS", "10:30:100"), "connections not yet logged in, in all, as OpenSSH's MaxStartups start:rate:full: from start on, with a chance of rate% growing to 100% at full, a new one takes the place of the oldest of the most crowded address (env BIVOUAC_MAX_STARTUPS)")
	startupsPerIP := fs.Int("max-startups-per-ip", envInt("BIVOUAC_MAX_STARTUPS_PER_IP", 8), "connections not yet logged in from one address; past it a new one takes the place of its address's oldest (env BIVOUAC_MAX_STARTUPS_PER_IP)")
	newKeys := fs.Int("new-keys-per-ip", envInt("BIVOUAC_NEW_KEYS_PER_IP", server.DefaultNewKeysPerHour), "keys never seen here one address may bring in an hour, -1 for no limit (env BIVOUAC_NEW_KEYS_PER_IP; raise it when many new players share one address)")
	tablesPerIP := fs.Int("tables-per-ip", envInt("BIVOUAC_TABLES_PER_IP", server.DefaultTablesPerAddr), "open tables the players of one address may hold at once, -1 for no limit (env BIVOUAC_TABLES_PER_IP; raise it when many players share one address)")
	typingPerIP := fs.Int("typing-per-ip", envInt("BIVOUAC_TYPING_PER_IP", 0), "bytes a second the sessions of one address may type, -1 for no limit (env BIVOUAC_TYPING_PER_IP; default 1024: raise it when many players share one address)")
	pprofAddr := fs.String("pprof", "", "serve Go's pprof profiles on this loopback address (e.g. 127.0.0.1:6060), for measuring")
	memLimit := fs.String("memory-limit", envOr("BIVOUAC_MEMORY_LIMIT", ""), "soft limit on the server's memory, e.g. 1GiB or 800MiB: the Go runtime collects harder as the heap nears it (GOMEMLIMIT; env BIVOUAC_MEMORY_LIMIT; default: none, or GOMEMLIMIT's). Set it below the machine's memory on a small machine; see docs/PERFORMANCE.md")
	publicHost := fs.String("public-host", envOr("BIVOUAC_PUBLIC_HOST", ""), "host name players ssh to, shown at start and in the lobby (env BIVOUAC_PUBLIC_HOST; default: this machine's names and addresses)")
	clusterName := fs.String("cluster", envOr("BIVOUAC_CLUSTER", ""), "run as a node of this cluster on NATS JetStream, not on one bbolt file (env BIVOUAC_CLUSTER)")
	node := fs.String("node", envOr("BIVOUAC_NODE", ""), "this node's ID in the cluster: unique, the same across restarts (env BIVOUAC_NODE)")
	peers := fs.String("peers", envOr("BIVOUAC_PEERS", ""), "route addresses host:port of the other nodes, comma-separated (env BIVOUAC_PEERS)")
	natsAddr := fs.String("nats-addr", envOr("BIVOUAC_NATS_ADDR", natsnode.DefaultClientAddr), "this node's NATS client address: only its own process connects (env BIVOUAC_NATS_ADDR)")
	clusterAddr := fs.String("cluster-addr", envOr("BIVOUAC_CLUSTER_ADDR", natsnode.DefaultClusterAddr), "where the other nodes' routes connect (env BIVOUAC_CLUSTER_ADDR)")
	tlsCert := fs.String("tls-cert", envOr("BIVOUAC_TLS_CERT", ""), "PEM certificate of this node, for TLS between nodes (env BIVOUAC_TLS_CERT)")
	tlsKey := fs.String("tls-key", envOr("BIVOUAC_TLS_KEY", ""), "PEM key of that certificate (env BIVOUAC_TLS_KEY)")
	tlsCA := fs.String("tls-ca", envOr("BIVOUAC_TLS_CA", ""), "PEM CA that signed every node's certificate (env BIVOUAC_TLS_CA)")
	insecureRoutes := fs.Bool("insecure-routes", envOr("BIVOUAC_INSECURE_ROUTES", "") == "1", "let a cluster node without TLS route off loopback: the cluster password and every hand cross the network in clear (env BIVOUAC_INSECURE_ROUTES=1)")
	allow := fs.String("allow", envOr("BIVOUAC_ALLOW", ""), "file of the SSH public keys that may come in, authorized_keys form: with it only those keys, the admins' and invited keys may, and no guests; read again when it changes or on SIGHUP (env BIVOUAC_ALLOW)")
	noGuests := fs.Bool("no-guests", envBool("BIVOUAC_NO_GUESTS"), "let no one in without an SSH key (env BIVOUAC_NO_GUESTS=1)")
	name := fs.String("name", envOr("BIVOUAC_NAME", ""), "this server's name, shown in the lobby and in help (env BIVOUAC_NAME)")
	motd := fs.String("motd", envOr("BIVOUAC_MOTD", ""), "message of the day shown in the lobby and in help; FILE.pl, FILE.ru, FILE.de beside it are shown to players of those languages; read again when changed (env BIVOUAC_MOTD)")
	admins := fs.String("admins", envOr("BIVOUAC_ADMINS", ""), "file of the admins' SSH public keys, authorized_keys form; read again when it changes or on SIGHUP (env BIVOUAC_ADMINS)")
	metricsAddr := fs.String("metrics-addr", envOr("BIVOUAC_METRICS_ADDR", ""), "serve Prometheus metrics (/metrics) and health checks (/healthz, /readyz) over HTTP on this address, e.g. 127.0.0.1:9464; keep it on loopback or a private network (env BIVOUAC_METRICS_ADDR; default: off)")
	logFormat := fs.String("log-format", envOr("BIVOUAC_LOG_FORMAT", "text"), "log lines as text (key=value) or json, one object a line (env BIVOUAC_LOG_FORMAT)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *memLimit != "" {
		n, err := parseBytes(*memLimit)
		if err != nil {
			return fmt.Errorf("--memory-limit: %w", err)
		}
		debug.SetMemoryLimit(n)
	}
	startups, err := sshserver.ParseStartups(*maxStartups)
	if err != nil {
		return fmt.Errorf("--max-startups: %w", err)
	}
	cluster, err := clusterConfig(*clusterName, *node, *peers, *natsAddr, *clusterAddr, *tlsCert, *tlsKey, *tlsCA)
	if err != nil {
		return err
	}
	if cluster != nil {
		cluster.InsecureRoutes = *insecureRoutes
	}
	level := slog.LevelInfo
	if *debugLog {
		level = slog.LevelDebug
	}
	handler, err := logHandler(*logFormat, stderr, level)
	if err != nil {
		return err
	}
	log := slog.New(handler)
	if *pprofAddr != "" {
		stop, err := servePprof(*pprofAddr)
		if err != nil {
			return err
		}
		defer stop()
	}
	// The port first: one already taken fails here, at once, not after
	// joining a cluster; sessions that come while the store opens hear the
	// server is starting (porch) rather than hang.
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	door, err := openPorch(l, *data, log)
	if err != nil {
		l.Close()
		return err
	}
	srv, err := startServer(ctx, server.Config{Addr: *addr, DataDir: *data, PublicHost: *publicHost, Guests: *guests && !*noGuests, Log: log,
		BotDelay: 900 * time.Millisecond, TakeoverAfter: 2 * time.Minute, NewKeysPerHour: *newKeys, TablesPerAddr: *tablesPerIP,
		SSH: sshserver.Config{MaxSessions: *maxSessions, MaxPerIP: *maxPerIP, MaxTypingPerIP: *typingPerIP,
			MaxStartups: startups, MaxStartupsPerIP: *startupsPerIP},
		Cluster: cluster,
		Access:  access.Config{AdminsFile: *admins, AllowFile: *allow, NoGuests: *noGuests, Name: *name, MOTDFile: *motd}})
	if errors.Is(err, errStopped) {
		door.Close()
		fmt.Fprintln(stdout, "Stopped while starting.")
		return nil
	}
	if err != nil {
		door.Close()
		return err
	}
	stopHUP := reloadOnHangup(srv.ReloadAccess)
	defer stopHUP()
	if *metricsAddr != "" {
		stop, bound, err := serveOps(*metricsAddr, srv.OpsHandler())
		if err != nil {
			door.Close()
			srv.Close()
			return err
		}
		defer stop()
		warnIfExposed(log, bound)
		fmt.Fprintf(stdout, "Metrics and health checks on http://%s/metrics, /healthz, /readyz\n", *metricsAddr)
	}
	port := "2222"
	if _, p, err := net.SplitHostPort(l.Addr().String()); err == nil {
		port = p
	}
	// Handed over before "listening" is said: a player who connects the
	// moment the operator reads it reaches the server, not the porch.
	listener := door.Handover()
	fmt.Fprintf(stdout, "Bivouac is listening on %s\n", l.Addr())
	fmt.Fprintf(stdout, "Host key fingerprint: %s\n", srv.HostKeyFingerprint())
	for i, host := range joinline.Hosts(l.Addr().String(), *publicHost) {
		label := "Join with: "
		if i > 0 {
			label = "       or: "
		}
		fmt.Fprintf(stdout, "%s %s\n", label, joinline.Command(port, host))
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(listener) }()
	select {
	case err := <-served:
		door.Close()
		if srv.Draining() { // `bivouac drain`: the drain stops the server
			<-srv.Drained()
			fmt.Fprintln(stdout, "Drained: the tables run on the other nodes; stopped.")
			return nil
		}
		srv.Close()
		return err
	case <-ctx.Done():
	}
	if srv.Draining() {
		fmt.Fprintln(stdout, "Draining: waiting for the tables to be handed over.")
		<-srv.Drained()
		return nil
	}
	fmt.Fprintln(stdout, "Shutting down: telling players, saving, closing.")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// envBool is whether the environment variable says yes (1, true, yes).
func envBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
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

// logHandler is the log's format: text (key=value, for a person) or json
// (one object a line, for a collector). Either way every line carries its
// fields apart (remote, room, reason…) for an operator to filter on.
func logHandler(format string, w io.Writer, level slog.Level) (slog.Handler, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "text", "":
		return slog.NewTextHandler(w, opts), nil
	case "json":
		return slog.NewJSONHandler(w, opts), nil
	}
	return nil, fmt.Errorf("--log-format %q: text or json", format)
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
// call, so it is a warning, naming the flag.
func warnIfExposed(log *slog.Logger, bound net.Addr) {
	tcp, ok := bound.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return
	}
	where := "an address other machines may reach"
	if tcp.IP.IsUnspecified() {
		where = "every interface"
	}
	log.Warn("--metrics-addr listens on "+where+": keep the metrics on loopback (127.0.0.1:9464) or a private network",
		"flag", "--metrics-addr", "addr", bound.String())
}

// parseBytes reads a size as GOMEMLIMIT writes it: a number of bytes with
// an optional B, KiB, MiB, GiB or TiB suffix.
func parseBytes(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = n, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size such as 800MiB or 2GiB", s)
	}
	return n * mult, nil
}

// clusterConfig turns the cluster flags into a node.Config: nil
// without --cluster (a single node on bbolt).
func clusterConfig(name, nodeID, peers, natsAddr, clusterAddr, cert, key, ca string) (*node.Config, error) {
	if name == "" {
		if nodeID != "" || peers != "" {
			return nil, fmt.Errorf("--node and --peers need --cluster")
		}
		return nil, nil
	}
	if nodeID == "" {
		return nil, fmt.Errorf("--cluster needs --node: this node's ID")
	}
	c := &node.Config{Name: name, Node: nodeID, NATSAddr: natsAddr, ClusterAddr: clusterAddr}
	for _, p := range strings.Split(peers, ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.Peers = append(c.Peers, p)
		}
	}
	if len(c.Peers) == 0 {
		return nil, fmt.Errorf("--cluster needs --peers: the other nodes' route addresses")
	}
	switch {
	case cert == "" && key == "" && ca == "":
	case cert == "" || key == "" || ca == "":
		return nil, fmt.Errorf("TLS needs all of --tls-cert, --tls-key and --tls-ca")
	default:
		c.TLS = &natsnode.TLSFiles{Cert: cert, Key: key, CA: ca}
	}
	return c, nil
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

// startServer is server.New, given up on when ctx ends first: a cluster
// node may wait minutes for its peers (ClusterConfig.ReadyWithin), and a
// stop asked meanwhile must not wait with it. The half-started server is
// closed when New returns; the process is exiting by then, which the
// store survives as it survives kill -9.
func startServer(ctx context.Context, cfg server.Config) (*server.Server, error) {
	type started struct {
		srv *server.Server
		err error
	}
	done := make(chan started, 1)
	go func() {
		srv, err := server.New(cfg)
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
