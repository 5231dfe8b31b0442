package lease

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	bivouacjs "github.com/bivouac-ssh/bivouac/persistence/jetstream"
)

// startNATS runs one embedded JetStream server and returns its client URL.
func startNATS(t testing.TB) string {
	t.Helper()
	ns, err := server.NewServer(loopbackJetStream(t))
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(ns.Shutdown)
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats server not ready")
	}
	return ns.ClientURL()
}

// loopbackJetStream is a quiet JetStream server on a random loopback client
// port, its store in a temporary directory.
func loopbackJetStream(t testing.TB) *server.Options {
	return &server.Options{
		Host:      "127.0.0.1",
		Port:      server.RANDOM_PORT,
		JetStream: true,
		StoreDir:  t.TempDir(),
		NoLog:     true,
		NoSigs:    true,
	}
}

// node is one cluster member's view of the lease bucket: its own connection.
type node struct {
	nc *nats.Conn
	kv jetstream.KeyValue
}

func connect(t testing.TB, url string) node {
	return connectReplicas(t, url, 1)
}

// connectReplicas opens the lease bucket with the given replication.
func connectReplicas(t testing.TB, url string, replicas int) node {
	t.Helper()
	nc, err := nats.Connect(url, nats.NoReconnect())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// As a node does: a young cluster's leader may not know every peer
	// yet ("no suitable peers for placement") and says so for a moment.
	var kv jetstream.KeyValue
	if err := bivouacjs.Patiently(ctx, func(ctx context.Context) (err error) {
		kv, err = OpenBucket(ctx, js, replicas)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return node{nc: nc, kv: kv}
}

func newManager(t *testing.T, kv KV, id string, opt Options) *Manager {
	t.Helper()
	m, err := NewManager(kv, id, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// startCluster runs three embedded JetStream servers routed to each other on
// loopback and returns their client URLs once the cluster has a JetStream
// leader, and the servers. A JetStream cluster needs its routes configured before it starts,
// so the route ports are picked free just before; the window in which
// another process could take one is short.
func startCluster(t testing.TB) ([]string, []*server.Server) {
	t.Helper()
	var routes []*url.URL
	var ports []int
	var held []net.Listener // all three held at once, so they differ
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, l)
		port := l.Addr().(*net.TCPAddr).Port
		ports = append(ports, port)
		routes = append(routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", port)})
	}
	for _, l := range held {
		l.Close()
	}
	var servers []*server.Server
	for i, port := range ports {
		opts := loopbackJetStream(t)
		opts.ServerName = fmt.Sprintf("s%d", i)
		opts.Cluster = server.ClusterOpts{Name: "lease-test", Host: "127.0.0.1", Port: port}
		opts.Routes = routes
		ns, err := server.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, ns)
	}
	for _, ns := range servers {
		ns.Start()
		t.Cleanup(ns.Shutdown)
	}
	for _, ns := range servers {
		if !ns.ReadyForConnections(30 * time.Second) {
			t.Fatal("nats server not ready")
		}
	}
	clocktest.CheckFor(t, 30*time.Second, 50*time.Millisecond, func() error {
		if !slices.ContainsFunc(servers, (*server.Server).JetStreamIsLeader) {
			return errors.New("no JetStream leader")
		}
		return nil
	})
	var urls []string
	for _, ns := range servers {
		urls = append(urls, ns.ClientURL())
	}
	return urls, servers
}
