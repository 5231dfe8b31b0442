package natsnode

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"
)

// Default listen addresses: loopback only. A cluster across machines sets
// its own.
const (
	DefaultClientAddr  = "127.0.0.1:4222"
	DefaultClusterAddr = "127.0.0.1:6222"
)

// Config describes one node.
type Config struct {
	// DataDir is the node's data directory (bivouac's): JetStream keeps
	// its files in DataDir/nats, the credentials are DataDir's.
	DataDir string
	// Name identifies the node in its cluster; it must be unique there and
	// stay the same across restarts (JetStream knows its peers by name).
	Name string
	// Cluster names the cluster; "" runs a single node with no routes.
	Cluster string
	// ClientAddr is where clients connect (host:port; port 0 picks a free
	// one). Default DefaultClientAddr.
	ClientAddr string
	// ClusterAddr is where peers' routes connect. Default
	// DefaultClusterAddr; ignored without Cluster.
	ClusterAddr string
	// Peers are the other nodes' cluster addresses (host:port). Listing
	// this node too is harmless.
	Peers []string
	// TLS, when set, encrypts client and route connections.
	TLS *TLSFiles
	// InsecureRoutes lets a cluster node without TLS route to or from an
	// address that is not loopback (RoutesInClear): the shared password
	// and every hand then cross the network in clear. Without it Start
	// refuses such a node with ErrRoutesInClear.
	InsecureRoutes bool
	// SyncAlways fsyncs every write before it is acknowledged. Off,
	// JetStream syncs its files every two minutes and a write is safe
	// once a majority of replicas hold it: a process crash loses nothing,
	// but a power cut on every replica at once could lose the last
	// minutes. Worth turning on for a single node.
	SyncAlways bool
	// Log hears the server's notices, warnings and errors; nil: silence.
	Log *slog.Logger
	// Elections are the raft election timeouts, the same for every node
	// of the process (zero: DefaultElections).
	Elections Elections
}

// TLSFiles are PEM files: this node's certificate and key, and the CA that
// signed every node's certificate (peers and clients are verified
// against it).
type TLSFiles struct {
	Cert, Key, CA string
}

// Node is a running embedded NATS server.
type Node struct {
	cfg   Config
	srv   *server.Server
	creds Credentials
	tls   *tls.Config // nil without TLS; else what this node's clients trust

	health health // what Serving remembers between calls
}

// Start starts a node. It returns once the server listens; Ready waits
// until JetStream answers.
func Start(cfg Config) (*Node, error) {
	if cfg.Name == "" {
		return nil, errors.New("natsnode: a node needs a name")
	}
	if cfg.ClientAddr == "" {
		cfg.ClientAddr = DefaultClientAddr
	}
	if cfg.ClusterAddr == "" {
		cfg.ClusterAddr = DefaultClusterAddr
	}
	if clear := cfg.RoutesInClear(); len(clear) > 0 && !cfg.InsecureRoutes {
		return nil, fmt.Errorf("natsnode: %w (%s): set up TLS, or set InsecureRoutes on a network you trust", ErrRoutesInClear, strings.Join(clear, ", "))
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, err
	}
	creds, err := LoadCredentials(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("natsnode: %w", err)
	}
	opts, clientTLS, err := serverOptions(cfg, creds)
	if err != nil {
		return nil, fmt.Errorf("natsnode: %w", err)
	}
	if err := listenable(cfg); err != nil {
		return nil, err
	}
	setElections(cfg.Elections)
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsnode: %w", err)
	}
	if cfg.Log != nil {
		srv.SetLogger(logger{log: cfg.Log, secret: creds.Password}, false, false)
	}
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("natsnode: %s did not start listening on %s", cfg.Name, cfg.ClientAddr)
	}
	return &Node{cfg: cfg, srv: srv, creds: creds, tls: clientTLS}, nil
}

// listenable refuses, at once and by name, a client or route address
// another process holds. The NATS server would only log it and never
// become ready, and Start would wait its full ten seconds for nothing.
func listenable(cfg Config) error {
	addrs := []string{cfg.ClientAddr}
	if cfg.Cluster != "" {
		addrs = append(addrs, cfg.ClusterAddr)
	}
	for _, a := range addrs {
		if _, port, err := net.SplitHostPort(a); err == nil && (port == "0" || port == "-1") {
			continue
		}
		l, err := net.Listen("tcp", a)
		if err != nil {
			return fmt.Errorf("natsnode: %s cannot listen on %s: %w", cfg.Name, a, err)
		}
		l.Close()
	}
	return nil
}

func serverOptions(cfg Config, creds Credentials) (*server.Options, *tls.Config, error) {
	host, port, err := splitAddr(cfg.ClientAddr)
	if err != nil {
		return nil, nil, fmt.Errorf("client address: %w", err)
	}
	// The server checks passwords against a bcrypt hash, so its options
	// never hold the secret. The secret is 256 random bits: the lowest
	// cost is plenty, and keeps each connection's check near a millisecond.
	hash, err := bcrypt.GenerateFromPassword([]byte(creds.Password), bcrypt.MinCost)
	if err != nil {
		return nil, nil, err
	}
	opts := &server.Options{
		ServerName: cfg.Name,
		Host:       host,
		Port:       port,
		Username:   creds.User,
		Password:   string(hash),
		JetStream:  true,
		StoreDir:   filepath.Join(cfg.DataDir, "nats"),
		NoSigs:     true, // the bivouac process owns its signals
		NoLog:      cfg.Log == nil,
		SyncAlways: cfg.SyncAlways,
		// The default 2 s is short for a node restarting on a busy
		// machine (a whole cluster coming back at once, under -race):
		// peers and clients that have not finished the handshake by then
		// are dropped and must start over.
		AuthTimeout: 10,
	}
	var clientTLS *tls.Config
	if cfg.TLS != nil {
		// Clients prove who they are with the password, so the server
		// asks them for no certificate; they check the server's.
		serverTLS, err := server.GenTLSConfig(&server.TLSConfigOpts{
			CertFile: cfg.TLS.Cert, KeyFile: cfg.TLS.Key, CaFile: cfg.TLS.CA,
		})
		if err != nil {
			return nil, nil, fmt.Errorf("tls: %w", err)
		}
		opts.TLS, opts.TLSConfig, opts.TLSTimeout = true, serverTLS, 2
		if clientTLS, err = trusting(cfg.TLS.CA, host); err != nil {
			return nil, nil, fmt.Errorf("tls: %w", err)
		}
	}
	if cfg.Cluster == "" {
		return opts, clientTLS, nil
	}
	chost, cport, err := splitAddr(cfg.ClusterAddr)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster address: %w", err)
	}
	opts.Cluster = server.ClusterOpts{
		Name: cfg.Cluster, Host: chost, Port: cport,
		Username: creds.User, Password: string(hash),
		AuthTimeout: opts.AuthTimeout,
	}
	scheme := "nats"
	if cfg.TLS != nil {
		// Routes verify each other both ways against the CA.
		routeTLS, err := server.GenTLSConfig(&server.TLSConfigOpts{
			CertFile: cfg.TLS.Cert, KeyFile: cfg.TLS.Key, CaFile: cfg.TLS.CA, Verify: true,
		})
		if err != nil {
			return nil, nil, fmt.Errorf("route tls: %w", err)
		}
		routeTLS.RootCAs = routeTLS.ClientCAs // dialing a peer checks it too
		opts.Cluster.TLSConfig, opts.Cluster.TLSTimeout = routeTLS, 2
		scheme = "tls"
	}
	for _, p := range cfg.Peers {
		if _, _, err := splitAddr(p); err != nil {
			return nil, nil, fmt.Errorf("peer %q: %w", p, err)
		}
		opts.Routes = append(opts.Routes, &url.URL{
			Scheme: scheme, Host: p, User: url.UserPassword(creds.User, creds.Password),
		})
	}
	if len(opts.Routes) == 0 {
		return nil, nil, errors.New("a cluster node needs at least one peer")
	}
	return opts, clientTLS, nil
}

// trusting is a client's TLS configuration: servers must present a
// certificate for host signed by the CA in caFile.
func trusting(caFile, host string) (*tls.Config, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s holds no PEM certificate", caFile)
	}
	return &tls.Config{RootCAs: pool, ServerName: host, MinVersion: tls.VersionTLS12}, nil
}

func splitAddr(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port %q", p)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// Name is the node's name in its cluster.
func (n *Node) Name() string { return n.cfg.Name }

// ClusterSize is how many nodes the cluster was configured with: this one
// and its distinct peers.
func (n *Node) ClusterSize() int {
	if n.cfg.Cluster == "" {
		return 1
	}
	own := n.srv.ClusterAddr()
	peers := map[string]bool{}
	for _, p := range n.cfg.Peers {
		if own != nil && p == own.String() {
			continue
		}
		peers[p] = true
	}
	return 1 + len(peers)
}

// ClientAddr is the address clients connect to (with the port chosen when
// the configured one was 0).
func (n *Node) ClientAddr() string { return n.srv.Addr().String() }

// ClusterAddr is the address peers route to, "" without a cluster.
func (n *Node) ClusterAddr() string {
	if a := n.srv.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

// Connect opens an authenticated client connection to this node. The
// caller closes it.
func (n *Node) Connect(opts ...nats.Option) (*nats.Conn, error) {
	base := []nats.Option{
		nats.Name("bivouac " + n.cfg.Name),
		nats.UserInfo(n.creds.User, n.creds.Password),
		nats.MaxReconnects(-1),
	}
	scheme := "nats://"
	if n.tls != nil {
		base, scheme = append(base, nats.Secure(n.tls.Clone())), "tls://"
	}
	return nats.Connect(scheme+n.ClientAddr(), append(base, opts...)...)
}

// Ready waits until JetStream on this node answers requests (in a cluster:
// the nodes found each other and chose a metadata leader), or timeout.
func (n *Node) Ready(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	// A first connection can time out on a loaded machine (a TLS handshake
	// behind other work): it is tried again within timeout, not taken for
	// a node that cannot serve.
	var nc *nats.Conn
	for {
		var err error
		if nc, err = n.Connect(); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("natsnode: %s: %w", n.cfg.Name, err)
		case <-tick.C:
		}
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	for {
		attempt, stop := context.WithTimeout(ctx, time.Second)
		_, err := js.AccountInfo(attempt)
		stop()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("natsnode: %s: JetStream not ready after %v: %w", n.cfg.Name, timeout, err)
		case <-tick.C:
		}
	}
}

// Shutdown stops the server and waits until it has. Clients connected to
// it see the connection drop.
func (n *Node) Shutdown() {
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
}

// logger passes the server's log lines to slog, with the password cut out
// should any line ever carry it.
type logger struct {
	log    *slog.Logger
	secret string
}

func (l logger) say(level slog.Level, format string, v []any) {
	msg := fmt.Sprintf(format, v...)
	if l.secret != "" {
		msg = strings.ReplaceAll(msg, l.secret, "<hidden>")
	}
	l.log.Log(context.Background(), level, msg, "component", "nats")
}

func (l logger) Noticef(format string, v ...any) { l.say(slog.LevelInfo, format, v) }
func (l logger) Warnf(format string, v ...any)   { l.say(slog.LevelWarn, format, v) }
func (l logger) Fatalf(format string, v ...any)  { l.say(slog.LevelError, format, v) }
func (l logger) Errorf(format string, v ...any)  { l.say(slog.LevelError, format, v) }
func (l logger) Debugf(format string, v ...any)  { l.say(slog.LevelDebug, format, v) }
func (l logger) Tracef(format string, v ...any)  { l.say(slog.LevelDebug-4, format, v) }
