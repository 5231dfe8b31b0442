package lease_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/cluster/lease"
)

// A node claims a room, checks its lease before each move, and gives the
// room up so that another node can take it at once.
func Example() {
	dir, _ := os.MkdirTemp("", "lease-example")
	defer os.RemoveAll(dir)
	ns, _ := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT,
		JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	ns.Start()
	defer ns.Shutdown()
	ns.ReadyForConnections(10 * time.Second)
	nc, _ := nats.Connect(ns.ClientURL())
	defer nc.Close()
	js, _ := jetstream.New(nc)

	ctx := context.Background()
	kv, _ := lease.OpenBucket(ctx, js, 1)
	opt := lease.Options{TTL: 3 * time.Second}
	a, _ := lease.NewManager(kv, "node-a", opt)
	b, _ := lease.NewManager(kv, "node-b", opt)

	held, err := a.Claim(ctx, "K7QX")
	if err != nil {
		fmt.Println(err)
		return
	}
	if held.Valid() {
		fmt.Println("node-a accepts a move")
	}
	owner, _ := b.Owner(ctx, "K7QX")
	fmt.Println("owner seen from node-b:", owner.Node)

	held.Release(ctx)
	fmt.Println("node-a valid after release:", held.Valid())
	taken, _ := b.Claim(ctx, "K7QX") // released: no wait
	fmt.Println("node-b holds it, with a larger token:", taken.Token() > held.Token())
	taken.Release(ctx)
	// Output:
	// node-a accepts a move
	// owner seen from node-b: node-a
	// node-a valid after release: false
	// node-b holds it, with a larger token: true
}
