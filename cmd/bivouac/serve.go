package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/server"
	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/sshserver"
)

// runServe is `bivouac serve`: flags and environment to a server.Config,
// then server.Run until a signal.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("BIVOUAC_ADDR", ":2222"), "listen address (env BIVOUAC_ADDR)")
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "data directory: host key and database (env BIVOUAC_DATA)")
	guests := fs.String("guests", envOr("BIVOUAC_GUESTS", "yes"), "players without an SSH key: yes (they come in and play as guests), watch (they may watch tables, not sit at or open one), or no (as --no-guests) (env BIVOUAC_GUESTS)")
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
	notifyOn := fs.Bool("notify", envBool("BIVOUAC_NOTIFY"), "send players' webhooks a message when a correspondence table waits on them (env BIVOUAC_NOTIFY=1; default: off); only to the hosts of --notify-hosts")
	notifyHosts := fs.String("notify-hosts", envOr("BIVOUAC_NOTIFY_HOSTS", ""), "the hosts notifications may go to, comma-separated: ntfy.sh, discord.com, hooks.slack.com; https only, unless an entry is written http://host:port; a loopback or private address only if listed as such (env BIVOUAC_NOTIFY_HOSTS)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	guestsIn, guestsWatch, err := parseGuests(*guests)
	if err != nil {
		return err
	}
	hosts, err := notify.ParseHosts(*notifyHosts)
	if err != nil {
		return fmt.Errorf("--notify-hosts: %w", err)
	}
	if *notifyOn && len(hosts) == 0 {
		return errors.New("--notify needs --notify-hosts: the hosts notifications may go to")
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
	err = server.Run(ctx, server.Config{Addr: *addr, DataDir: *data, PublicHost: *publicHost, Guests: guestsIn && !*noGuests, GuestsWatch: guestsWatch,
		Log: log, BotDelay: 900 * time.Millisecond, TakeoverAfter: 2 * time.Minute,
		NewKeysPerHour: *newKeys, TablesPerAddr: *tablesPerIP, MetricsAddr: *metricsAddr, PprofAddr: *pprofAddr,
		SSH: sshserver.Config{MaxSessions: *maxSessions, MaxPerIP: *maxPerIP, MaxTypingPerIP: *typingPerIP,
			MaxStartups: startups, MaxStartupsPerIP: *startupsPerIP},
		Cluster: cluster,
		Notify:  notify.Policy{On: *notifyOn, Hosts: hosts},
		Access:  access.Config{AdminsFile: *admins, AllowFile: *allow, NoGuests: *noGuests, Name: *name, MOTDFile: *motd}},
		bannerOut(*logFormat, stdout))
	if err != nil {
		log.Error("stopped", "err", err)
		return loggedError{err}
	}
	return nil
}

// bannerOut is where the banner for a person goes: stdout, but with a JSON
// log only when stdout is a terminal, so that a collector reading the
// process's output (journald) reads nothing but JSON. The start and the
// stop are log records either way.
func bannerOut(format string, stdout io.Writer) io.Writer {
	if format == "json" && !isTerminal(stdout) {
		return io.Discard
	}
	return stdout
}

// loggedError is an error the log already holds as a record: main exits
// with it without writing it again (a JSON log stays all JSON).
type loggedError struct{ error }

func (e loggedError) Unwrap() error { return e.error }

// parseGuests reads --guests: whether guests come in, and whether they
// only watch.
func parseGuests(s string) (in, watchOnly bool, err error) {
	switch strings.ToLower(s) {
	case "yes", "true", "1", "on":
		return true, false, nil
	case "watch":
		return true, true, nil
	case "no", "false", "0", "off":
		return false, false, nil
	}
	return false, false, fmt.Errorf("--guests %q: yes, watch or no", s)
}

// envBool is whether the environment variable says yes (1, true, yes).
func envBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// logHandler is the log's format: text (key=value, for a person) or json
// (one object a line, for a collector). Either way every line carries its
// fields apart (remote, room, reason…) for an operator to filter on. A
// duration is written as Go writes it ("1h0m0s", "1.5s") in both: JSON's
// default, a number of nanoseconds, reads as a count of something else.
func logHandler(format string, w io.Writer, level slog.Level) (slog.Handler, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "text", "":
		return slog.NewTextHandler(w, opts), nil
	case "json":
		opts.ReplaceAttr = durationAsText
		return slog.NewJSONHandler(w, opts), nil
	}
	return nil, fmt.Errorf("--log-format %q: text or json", format)
}

// durationAsText writes a duration attribute as "1h0m0s".
func durationAsText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
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
