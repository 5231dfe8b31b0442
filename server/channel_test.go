package server

import (
	"net"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// cpuTime is the process's user+system CPU time so far.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A session's program ends with its channel, not with its connection: a
// client that closes terminal sessions but keeps the connection open (as
// OpenSSH's ControlMaster does) leaves nothing running behind (issue 12
// item 2).
func TestClosedSessionsOnAnOpenConnectionLeaveNothingRunning(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU for a few seconds")
	}
	_, addr := startServer(t, t.TempDir())
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{
		User: "multiplexer", Auth: []gossh.AuthMethod{gossh.PublicKeys(sshtest.NewKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := gossh.NewClient(cc, chans, reqs)
	defer client.Close()

	settle := func() int {
		time.Sleep(300 * time.Millisecond)
		runtime.GC()
		return runtime.NumGoroutine()
	}
	base := settle()
	for range 20 {
		sess, err := client.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := sess.StdoutPipe()
		if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		if _, err := out.Read(buf); err != nil { // the lobby has started drawing
			t.Fatal(err)
		}
		sess.Close()
	}
	// Goroutines go back to about what one idle connection has.
	deadline := time.Now().Add(10 * time.Second)
	n := settle()
	for n > base+5 && time.Now().Before(deadline) {
		n = settle()
	}
	if n > base+5 {
		t.Errorf("%d goroutines with every session closed, %d before: the sessions' programs live on", n, base)
	}
	// And nothing spins: the server's CPU over the next two seconds stays near idle.
	before, start := cpuTime(t), time.Now()
	time.Sleep(2 * time.Second)
	used, wall := cpuTime(t)-before, time.Since(start)
	if used > wall/10 {
		t.Errorf("the server used %v of CPU in %v with no session open", used, wall.Round(time.Millisecond))
	}
	t.Logf("goroutines %d → %d; CPU %v in %v", base, n, used, wall.Round(time.Millisecond))
}
