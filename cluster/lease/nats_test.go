package lease

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// startNATS runs an embedded JetStream server on a random loopback port with
// its store in a temporary directory, and returns its client URL.
func startNATS(t testing.TB) string {
	t.Helper()
	ns, err := server.NewServer(&server.Options{
		Host:      "127.0.0.1",
		Port:      server.RANDOM_PORT,
		JetStream: true,
		StoreDir:  t.TempDir(),
		NoLog:     true,
		NoSigs:    true,
	})
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

// node is one cluster member's view of the lease bucket: its own connection.
type node struct {
	nc *nats.Conn
	kv jetstream.KeyValue
}

func connect(t testing.TB, url string) node {
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kv, err := OpenBucket(ctx, js, 1)
	if err != nil {
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
