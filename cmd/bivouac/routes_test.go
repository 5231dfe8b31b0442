package main

import (
	"bufio"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
)

// clusterArgs are serve's arguments for a cluster node routing on every
// interface (not loopback) without TLS.
func clusterArgs(t *testing.T, dir string) []string {
	t.Helper()
	addrs, err := natsnode.FreeLoopbackAddrs(3)
	if err != nil {
		t.Fatal(err)
	}
	_, routePort, _ := net.SplitHostPort(addrs[1])
	return []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--cluster", "camp", "--node", "n1",
		"--nats-addr", addrs[0], "--cluster-addr", "0.0.0.0:" + routePort, "--peers", addrs[2]}
}

// Issue 28 item 10: a cluster node whose routes leave the machine without
// TLS would send the NATS password and every hand in clear: it does not
// start, and says how to fix it, unless --insecure-routes accepts it.
func TestServeRefusesRoutesInClear(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	err := run(t.Context(), clusterArgs(t, dir), &out, &out)
	if !errors.Is(err, natsnode.ErrRoutesInClear) {
		t.Fatalf("serve with routes in clear: %v; want ErrRoutesInClear", err)
	}
	for _, want := range []string{"0.0.0.0:", "--tls-cert", "--insecure-routes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q lacks %q", err, want)
		}
	}
	for _, name := range []string{"nats", natsnode.CredentialsFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("the refused node made %s", name)
		}
	}
}

// With --insecure-routes the node starts, and says once that its routes
// are in clear.
func TestInsecureRoutesStartsWithAWarning(t *testing.T) {
	args := append(clusterArgs(t, t.TempDir()), "--insecure-routes")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BIVOUAC_TEST_MAIN="+strings.Join(args, " "))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	deadline := time.After(10 * time.Second)
	warned := 0
	for warned == 0 {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the node stopped without warning about its routes")
			}
			if strings.Contains(line, "bivouac:") {
				t.Fatalf("the node refused to start: %s", line)
			}
			if strings.Contains(line, "level=WARN") && strings.Contains(line, "in clear") {
				warned++
			}
		case <-deadline:
			t.Fatal("no warning about routes in clear within 10 s")
		}
	}
	// The node goes on to wait for its peer: the warning came from a start,
	// not a refusal.
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the node stopped after its warning")
			}
			if strings.Contains(line, "in clear") {
				t.Fatalf("warned twice: %s", line)
			}
			if strings.Contains(line, "waiting for the cluster") {
				return
			}
		case <-deadline:
			t.Fatal("the node did not go on to wait for its cluster")
		}
	}
}
