package sshserver

import (
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	"golang.org/x/sys/unix"
)

// A client that vanishes (its network gone: nothing more arrives from it,
// not even a reset) is ended by the kernel's TCP keepalives within
// Config.VanishedAfter, with the SSH-level keepalives off: the guarantee
// that a vanished laptop frees its seat within two minutes, at a shorter
// scale. The loopback is taken down under the connection, which only
// root may do and only in a network namespace of the test's own: the
// test runs itself again there (unshare -n).
func TestVanishedClientIsEndedByTheKernel(t *testing.T) {
	if os.Getenv("BIVOUAC_TEST_NETNS") == "" {
		inOwnNetworkNamespace(t, "^TestVanishedClientIsEndedByTheKernel$")
		return
	}
	for _, args := range [][]string{{"ip", "link", "set", "lo", "up"}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	const after = 3 * time.Second
	srv := start(t, Config{KeepAliveInterval: -1, VanishedAfter: after})
	c := sshtest.Dial(t, srv.addr)
	c.ExpectScreen(t, `who SHA256`, wait)
	if n := srv.openConns(); n != 1 {
		t.Fatalf("%d connections open, want 1", n)
	}

	// The loopback goes down: nothing passes any more either way, and
	// neither end is told (no reset, no FIN), as when a laptop is shut.
	if out, err := exec.Command("ip", "link", "set", "lo", "down").CombinedOutput(); err != nil {
		t.Fatalf("ip link set lo down: %v\n%s", err, out)
	}
	vanished := time.Now()
	// Nothing ends it before the probes had their chance (half of after
	// in silence, then probes), and the kernel ends it soon after after.
	clocktest.CheckFor(t, after+5*time.Second, 50*time.Millisecond, func() error {
		if n := srv.openConns(); n > 0 {
			return fmt.Errorf("the vanished client's connection is still open after %v", time.Since(vanished).Round(time.Millisecond))
		}
		return nil
	})
	// The kernel counts keepalive times in whole seconds.
	took := time.Since(vanished)
	if took < after/2 || took > after+time.Second {
		t.Errorf("ended %v after the client vanished, want within VanishedAfter (%v) but not before a probe went unanswered", took, after)
	}
	t.Logf("the vanished client's connection ended %v after it vanished (VanishedAfter %v)", took.Round(time.Millisecond), after)
}

// inOwnNetworkNamespace runs the test named by run again, in a new network
// namespace (unshare -n), and passes its outcome on. It skips where that
// cannot be done: not root, or no unshare or ip.
func inOwnNetworkNamespace(t *testing.T, run string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: a network namespace whose loopback it takes down")
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
	if err := exec.Command("unshare", "-n", "true").Run(); err != nil {
		t.Skipf("no network namespace here: %v", err)
	}
	cmd := exec.Command("unshare", "-n", os.Args[0], "-test.run="+run, "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "BIVOUAC_TEST_NETNS=1")
	out, err := cmd.CombinedOutput()
	t.Logf("in its own network namespace:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("failed in its own network namespace: %v", err)
	}
}

// openConns is how many connections the server holds.
func (s *Server) openConns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// With the defaults, every connection's socket holds the settings that
// end a vanished client's connection within two minutes.
func TestVanishedWithinTwoMinutesByDefault(t *testing.T) {
	srv := start(t, Config{})
	c := sshtest.Dial(t, srv.addr)
	c.ExpectScreen(t, `who SHA256`, wait)
	srv.mu.Lock()
	var conn net.Conn
	for c := range srv.conns {
		conn = c
	}
	srv.mu.Unlock()
	lc, ok := conn.(*limitedConn)
	if !ok {
		t.Fatalf("the server holds a %T", conn)
	}
	tc, ok := lc.Conn.(*net.TCPConn)
	if !ok {
		t.Fatalf("under the limiter, a %T", lc.Conn)
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	if err := raw.Control(func(fd uintptr) {
		for name, opt := range map[string][2]int{"keepalive": {unix.SOL_SOCKET, unix.SO_KEEPALIVE},
			"idle": {unix.IPPROTO_TCP, unix.TCP_KEEPIDLE}, "interval": {unix.IPPROTO_TCP, unix.TCP_KEEPINTVL},
			"count": {unix.IPPROTO_TCP, unix.TCP_KEEPCNT}, "user timeout ms": {unix.IPPROTO_TCP, unix.TCP_USER_TIMEOUT}} {
			v, err := unix.GetsockoptInt(int(fd), opt[0], opt[1])
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			got[name] = v
		}
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"keepalive": 1, "idle": 60, "interval": 15, "count": 4, "user timeout ms": 120000}
	if !maps.Equal(got, want) {
		t.Errorf("socket options %v, want %v", got, want)
	}
	if got["idle"]+got["interval"]*got["count"] > 120 || got["user timeout ms"] > 120000 {
		t.Errorf("a vanished client may be kept past two minutes: %v", got)
	}
}
