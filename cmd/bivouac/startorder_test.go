package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
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
	err = runServe(context.Background(), en, []string{"--addr", taken.Addr().String(), "--data", data,
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

// A node asked to stop while it waits for its peers stops at once, not
// when the wait for the cluster runs out; until then its port answers.
func TestServeStopsWhileWaitingForItsCluster(t *testing.T) {
	free, err := natsnode.FreeLoopbackAddrs(4)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Not t.TempDir: the half-started node goes on writing there until
	// its own wait ends, after the test: removing it may leave some behind.
	data, err := os.MkdirTemp("", "bivouac-stop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(data) })
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, en, []string{"--addr", free[0], "--data", data,
			"--cluster", "c", "--node", "a", "--nats-addr", free[1], "--cluster-addr", free[2], "--peers", free[3]},
			&stdout, &stderr)
	}()
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		c, err := net.Dial("tcp", free[0])
		if err != nil {
			return fmt.Errorf("the port was not bound while the node waits for its peers: %v\n%s", err, stderr.String())
		}
		c.Close()
		return nil
	})
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the node went on waiting for its cluster after it was told to stop")
	}
	if !strings.Contains(stdout.String(), "Stopped while starting") {
		t.Fatalf("stdout: %q", stdout.String())
	}
}
