// Package natstest starts embedded NATS nodes on loopback for tests: one
// node or a cluster, on free ports, stopped by the test's cleanup.
package natstest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
)

// ReadyWithin bounds how long a test waits for JetStream to answer.
const ReadyWithin = 20 * time.Second

// Cluster is n nodes on loopback with their data dirs, which survive Stop
// so Start can bring the same nodes back.
type Cluster struct {
	Nodes   []*natsnode.Node
	Configs []natsnode.Config
	t       testing.TB
}

// Start starts n nodes (n = 1: a single node without routes) sharing one
// credentials file, and waits until each answers and the metadata leader
// knows them all online. Edit configure's argument to change a node's
// config (TLS, for one); nil changes nothing.
func Start(t testing.TB, n int, configure func(i int, c *natsnode.Config)) *Cluster {
	t.Helper()
	dirs := DataDirs(t, n)
	c := &Cluster{t: t}
	t.Cleanup(c.StopAll)
	// A port found free can still be taken by another process before its
	// node listens; new ports then, a few times, rather than a failed test.
	var err error
	for range 3 {
		if err = c.configure(dirs, configure); err != nil {
			break
		}
		if err = c.startAll(); err == nil || !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
		c.StopAll()
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *Cluster) configure(dirs []string, configure func(i int, c *natsnode.Config)) error {
	n := len(dirs)
	routes, err := natsnode.FreeLoopbackAddrs(n)
	if err != nil {
		return err
	}
	c.Configs = nil
	for i := range n {
		cfg := natsnode.Config{DataDir: dirs[i], Name: fmt.Sprintf("n%d", i+1), ClientAddr: "127.0.0.1:0"}
		if n > 1 {
			cfg.Cluster, cfg.ClusterAddr, cfg.Peers = "test", routes[i], routes
		}
		if configure != nil {
			configure(i, &cfg)
		}
		c.Configs = append(c.Configs, cfg)
	}
	return nil
}

// StartAll starts every node (again, after StopAll) and waits until
// JetStream answers on each.
func (c *Cluster) StartAll() {
	c.t.Helper()
	if err := c.startAll(); err != nil {
		c.t.Fatal(err)
	}
}

func (c *Cluster) startAll() error {
	c.Nodes = make([]*natsnode.Node, len(c.Configs))
	for i, cfg := range c.Configs {
		n, err := natsnode.Start(cfg)
		if err != nil {
			c.StopAll()
			return err
		}
		c.Nodes[i] = n
	}
	var wg sync.WaitGroup
	errs := make([]error, len(c.Nodes))
	for i, n := range c.Nodes {
		wg.Go(func() { errs[i] = n.Ready(ReadyWithin) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		c.StopAll()
		return err
	}
	if err := c.whole(ReadyWithin); err != nil {
		c.StopAll()
		return err
	}
	return nil
}

// whole waits, up to timeout, until the metadata leader knows every node
// online: JetStream answers on each node before that, but an asset
// replicated to all of them cannot be placed yet (a test creating one at
// once failed with "no suitable peers for placement, peer offline").
func (c *Cluster) whole(timeout time.Duration) error {
	if len(c.Nodes) < 2 {
		return nil
	}
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, n := range c.Nodes {
			if n.PeersOnline() == len(c.Nodes) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: the metadata leader does not know all %d nodes online after %v", len(c.Nodes), timeout)
		}
		<-tick.C
	}
}

// StopAll shuts every running node down; their data dirs stay.
func (c *Cluster) StopAll() {
	for i, n := range c.Nodes {
		if n != nil {
			n.Shutdown()
			c.Nodes[i] = nil
		}
	}
}

// DataDirs makes n node data dirs (0700) under a temporary dir, holding
// one credentials file between them, as a cluster's nodes need.
func DataDirs(t testing.TB, n int) []string {
	t.Helper()
	root := t.TempDir()
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = filepath.Join(root, fmt.Sprintf("node%d", i+1))
		if err := os.MkdirAll(dirs[i], 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := natsnode.WriteCredentials(dirs[0]); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dirs[0], natsnode.CredentialsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs[1:] {
		if err := os.WriteFile(filepath.Join(d, natsnode.CredentialsFile), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}
