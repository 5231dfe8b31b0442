package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bivouac/cluster/natsnode"
)

// A node whose SSH port is taken fails at once, before it joins its
// cluster: nothing is written to its data directory, no NATS server starts.
func TestServeFailsAtOnceWhenItsPortIsTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	free, err := natsnode.FreeLoopbackAddrs(3)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "node")
	var stdout, stderr lockedBuffer
	start := time.Now()
	err = runServe(context.Background(), []string{"--addr", taken.Addr().String(), "--data", data,
		"--cluster", "c", "--node", "a", "--nats-addr", free[0], "--cluster-addr", free[1], "--peers", free[2]},
		&stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("serve on a taken port: %v, want address already in use", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("took %v to fail: it must fail before joining the cluster", took)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(data)
		t.Fatalf("the data directory was touched (%v): %v", err, entries)
	}
}
