package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/server"
	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/words"
)

// runServe is `bivouac serve`: flags and environment to a server.Config,
// then server.Run until a signal.
func runServe(ctx context.Context, p *i18n.Printer, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("serve")
	addr := fs.String("addr", envOr("BIVOUAC_ADDR", ":2222"), "op.flag.addr")
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "op.flag.data")
	guests := fs.String("guests", envOr("BIVOUAC_GUESTS", "yes"), "op.flag.guests")
	debugLog := fs.Bool("debug", false, "op.flag.debug")
	maxSessions := fs.Int("max-sessions", envInt("BIVOUAC_MAX_SESSIONS", 2000), "op.flag.max_sessions")
	maxPerIP := fs.Int("max-per-ip", envInt("BIVOUAC_MAX_PER_IP", 16), "op.flag.max_per_ip")
	maxStartups := fs.String("max-startups", envOr("BIVOUAC_MAX_STARTUPS", "10:30:100"), "op.flag.max_startups")
	startupsPerIP := fs.Int("max-startups-per-ip", envInt("BIVOUAC_MAX_STARTUPS_PER_IP", 8), "op.flag.max_startups_per_ip")
	newKeys := fs.Int("new-keys-per-ip", envInt("BIVOUAC_NEW_KEYS_PER_IP", server.DefaultNewKeysPerHour), "op.flag.new_keys_per_ip")
	tablesPerIP := fs.Int("tables-per-ip", envInt("BIVOUAC_TABLES_PER_IP", server.DefaultTablesPerAddr), "op.flag.tables_per_ip")
	typingPerIP := fs.Int("typing-per-ip", envInt("BIVOUAC_TYPING_PER_IP", 0), "op.flag.typing_per_ip")
	pprofAddr := fs.String("pprof", "", "op.flag.pprof")
	memLimit := fs.String("memory-limit", envOr("BIVOUAC_MEMORY_LIMIT", ""), "op.flag.memory_limit")
	publicHost := fs.String("public-host", envOr("BIVOUAC_PUBLIC_HOST", ""), "op.flag.public_host")
	clusterName := fs.String("cluster", envOr("BIVOUAC_CLUSTER", ""), "op.flag.cluster")
	node := fs.String("node", envOr("BIVOUAC_NODE", ""), "op.flag.node")
	peers := fs.String("peers", envOr("BIVOUAC_PEERS", ""), "op.flag.peers")
	natsAddr := fs.String("nats-addr", envOr("BIVOUAC_NATS_ADDR", natsnode.DefaultClientAddr), "op.flag.nats_addr")
	clusterAddr := fs.String("cluster-addr", envOr("BIVOUAC_CLUSTER_ADDR", natsnode.DefaultClusterAddr), "op.flag.cluster_addr")
	tlsCert := fs.String("tls-cert", envOr("BIVOUAC_TLS_CERT", ""), "op.flag.tls_cert")
	tlsKey := fs.String("tls-key", envOr("BIVOUAC_TLS_KEY", ""), "op.flag.tls_key")
	tlsCA := fs.String("tls-ca", envOr("BIVOUAC_TLS_CA", ""), "op.flag.tls_ca")
	insecureRoutes := fs.Bool("insecure-routes", envOr("BIVOUAC_INSECURE_ROUTES", "") == "1", "op.flag.insecure_routes")
	allow := fs.String("allow", envOr("BIVOUAC_ALLOW", ""), "op.flag.allow")
	noGuests := fs.Bool("no-guests", envBool("BIVOUAC_NO_GUESTS"), "op.flag.no_guests")
	name := fs.String("name", envOr("BIVOUAC_NAME", ""), "op.flag.name")
	motd := fs.String("motd", envOr("BIVOUAC_MOTD", ""), "op.flag.motd")
	admins := fs.String("admins", envOr("BIVOUAC_ADMINS", ""), "op.flag.admins")
	metricsAddr := fs.String("metrics-addr", envOr("BIVOUAC_METRICS_ADDR", ""), "op.flag.metrics_addr")
	logFormat := fs.String("log-format", envOr("BIVOUAC_LOG_FORMAT", "text"), "op.flag.log_format")
	notifyOn := fs.Bool("notify", envBool("BIVOUAC_NOTIFY"), "op.flag.notify")
	notifyHosts := fs.String("notify-hosts", envOr("BIVOUAC_NOTIFY_HOSTS", ""), "op.flag.notify_hosts")
	if err := parseFlags(p, fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 { // "bivouac --lang de serve": flags before the command
		return opError("op.err.extra_word", words.Text("Extra", fs.Arg(0)), words.Text("Command", "serve"))
	}
	guestsIn, guestsWatch, err := parseGuests(*guests)
	if err != nil {
		return err
	}
	hosts, err := notify.ParseHosts(*notifyHosts)
	if err != nil {
		return opError("op.err.notify_hosts", words.Text("Value", *notifyHosts), words.Num("Max", notify.MaxHosts))
	}
	if *notifyOn && len(hosts) == 0 {
		return opError("op.err.notify_needs_hosts")
	}
	if *memLimit != "" {
		n, err := parseBytes(*memLimit)
		if err != nil {
			return err
		}
		debug.SetMemoryLimit(n)
	}
	startups, err := sshserver.ParseStartups(*maxStartups)
	if err != nil {
		return opError("op.err.max_startups", words.Text("Value", *maxStartups))
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
		Lang: p.Lang(),
		Log:  log, BotDelay: 900 * time.Millisecond, TakeoverAfter: 2 * time.Minute,
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
	return false, false, opError("op.err.guests", words.Text("Value", s))
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
	return nil, opError("op.err.log_format", words.Text("Value", format))
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
		return 0, opError("op.err.memory_limit", words.Text("Value", s))
	}
	return n * mult, nil
}

// clusterConfig turns the cluster flags into a node.Config: nil
// without --cluster (a single node on bbolt).
func clusterConfig(name, nodeID, peers, natsAddr, clusterAddr, cert, key, ca string) (*node.Config, error) {
	if name == "" {
		if nodeID != "" || peers != "" {
			return nil, opError("op.err.cluster_missing")
		}
		return nil, nil
	}
	if nodeID == "" {
		return nil, opError("op.err.node_missing")
	}
	c := &node.Config{Name: name, Node: nodeID, NATSAddr: natsAddr, ClusterAddr: clusterAddr}
	for _, p := range strings.Split(peers, ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.Peers = append(c.Peers, p)
		}
	}
	if len(c.Peers) == 0 {
		return nil, opError("op.err.peers_missing")
	}
	switch {
	case cert == "" && key == "" && ca == "":
	case cert == "" || key == "" || ca == "":
		return nil, opError("op.err.tls_partial")
	default:
		c.TLS = &natsnode.TLSFiles{Cert: cert, Key: key, CA: ca}
	}
	return c, nil
}
