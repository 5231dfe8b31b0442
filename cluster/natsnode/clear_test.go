package natsnode_test

import (
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
)

func TestRoutesInClearAreTheNonLoopbackOnesWithoutTLS(t *testing.T) {
	for _, tt := range []struct {
		cfg  natsnode.Config
		want string
	}{
		{natsnode.Config{Cluster: "c", ClusterAddr: "127.0.0.1:6222", Peers: []string{"127.0.0.2:6222", "[::1]:6222", "localhost:6223"}}, ""},
		{natsnode.Config{Cluster: "c", Peers: []string{"127.0.0.1:6223"}}, ""}, // the default address is loopback
		{natsnode.Config{Cluster: "c", ClusterAddr: "10.0.0.2:6222", Peers: []string{"10.0.0.1:6222"}}, "10.0.0.2:6222 10.0.0.1:6222"},
		{natsnode.Config{Cluster: "c", ClusterAddr: ":6222", Peers: []string{"127.0.0.1:6223"}}, ":6222"},
		{natsnode.Config{Cluster: "c", ClusterAddr: "0.0.0.0:6222", Peers: []string{"node2.example:6222"}}, "0.0.0.0:6222 node2.example:6222"},
		{natsnode.Config{Cluster: "c", ClusterAddr: "127.0.0.1:6222", Peers: []string{"192.168.1.5:6222"}}, "192.168.1.5:6222"},
		{natsnode.Config{Cluster: "c", ClusterAddr: "10.0.0.2:6222", TLS: &natsnode.TLSFiles{}}, ""},
		{natsnode.Config{ClusterAddr: "10.0.0.2:6222"}, ""}, // no cluster: no routes
	} {
		if got := strings.Join(tt.cfg.RoutesInClear(), " "); got != tt.want {
			t.Errorf("RoutesInClear(%+v) = %q; want %q", tt.cfg, got, tt.want)
		}
	}
}

// Issue 28 item 10: a node whose routes leave the machine without TLS
// would send the cluster password and every hand in clear. Start refuses
// it, creating and opening nothing, unless InsecureRoutes accepts it.
func TestStartRefusesRoutesInClearUnlessAccepted(t *testing.T) {
	addrs, err := natsnode.FreeLoopbackAddrs(2)
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(addrs[0])
	dir := t.TempDir()
	cfg := natsnode.Config{DataDir: dir, Name: "n1", Cluster: "c", ClientAddr: "127.0.0.1:0",
		ClusterAddr: "0.0.0.0:" + port, Peers: []string{addrs[1]}}
	n, err := natsnode.Start(cfg)
	if !errors.Is(err, natsnode.ErrRoutesInClear) {
		if n != nil {
			n.Shutdown()
		}
		t.Fatalf("Start with routes in clear: %v; want ErrRoutesInClear", err)
	}
	if !strings.Contains(err.Error(), "0.0.0.0:"+port) {
		t.Errorf("the refusal %q does not name the address", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the refused node made %v", entries)
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
		c.Close()
		t.Fatal("the refused node listens for routes")
	}

	cfg.InsecureRoutes = true
	n, err = natsnode.Start(cfg)
	if err != nil {
		t.Fatalf("Start with InsecureRoutes: %v", err)
	}
	n.Shutdown()
}
