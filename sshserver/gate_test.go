package sshserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// dialFrom opens a raw TCP connection from the local address ip (any of
// 127.0.0.0/8 on Linux), closed at cleanup.
func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: wait}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// closedByServer reports whether the server closed nc within d (its
// version line and key exchange may come first).
func closedByServer(nc net.Conn, d time.Duration) bool {
	_ = nc.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, nc)
	return err == nil
}

// openOnes is how many of conns the server has not closed.
func openOnes(conns []net.Conn) (open int) {
	for _, nc := range conns {
		_ = nc.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := io.Copy(io.Discard, nc); err != nil {
			open++
		}
	}
	return open
}

// The attack of issue 28: 16 silent connections from one address locked it
// out of the game for a minute. Silent connections hold no player's place
// and give theirs up to whoever talks.
func TestSilentConnectionsDoNotKeepAPlayerOut(t *testing.T) {
	srv := start(t, Config{AllowGuests: true})
	var silent []net.Conn
	for range 16 {
		silent = append(silent, dialFrom(t, "127.0.0.1", srv.addr))
	}
	// The oldest are closed as newer ones come, down to the address's budget.
	eventually(t, func() bool { return openOnes(silent) == srv.cfg.MaxStartupsPerIP })
	if total, _ := srv.gate.counts("127.0.0.1"); total != srv.cfg.MaxStartupsPerIP {
		t.Errorf("%d connections waiting to log in, want the %d the address may have", total, srv.cfg.MaxStartupsPerIP)
	}
	a := sshtest.Dial(t, srv.addr)
	a.ExpectScreen(t, `who SHA256`, wait)
	b := sshtest.Dial(t, srv.addr, sshtest.AsGuest())
	b.ExpectScreen(t, `who guest:`, wait)
	if total, ip := srv.limits.counts("127.0.0.1"); total != 2 || ip != 2 {
		t.Errorf("player places: %d in all, %d from the address; want 2 and 2", total, ip)
	}
	if total, _ := srv.gate.counts("127.0.0.1"); total > srv.cfg.MaxStartupsPerIP {
		t.Errorf("%d connections waiting to log in, budget %d", total, srv.cfg.MaxStartupsPerIP)
	}
}

// 2,080 silent connections from 130 addresses locked everyone out; here
// silent connections from many addresses fill the budget in all, and a
// player from elsewhere still gets in, even with one place left.
func TestSilentConnectionsFromManyAddressesKeepNoOneOut(t *testing.T) {
	srv := startTuned(t, Config{MaxSessions: 1, MaxStartups: Startups{Start: 4, Rate: 30, Full: 8}, MaxStartupsPerIP: 3},
		func(s *Server) { s.gate.rand = func() float64 { return 0.99 } }) // refused only when full
	var silent []net.Conn
	for i := range 10 {
		for range 4 {
			silent = append(silent, dialFrom(t, fmt.Sprintf("127.0.1.%d", i+1), srv.addr))
		}
	}
	// Every one was seen: all but the 8 of the budget were closed.
	eventually(t, func() bool { return openOnes(silent) == 8 })
	srv.typing.mu.Lock()
	remembered := len(srv.typing.by)
	srv.typing.mu.Unlock()
	if remembered != 0 {
		t.Errorf("%d addresses that never logged in have a typing budget remembered", remembered)
	}
	a := sshtest.Dial(t, srv.addr)
	a.ExpectScreen(t, `who SHA256`, wait)
}

// Connections that talk and then stall meet OpenSSH's random early drop:
// from Start waiting, a newcomer is refused with a chance growing from
// Rate% to 100% at Full.
func TestRandomEarlyDropOfStalledHandshakes(t *testing.T) {
	var mu sync.Mutex
	draws := []float64{0.7, 0.6, 0.9, 0.0}
	srv := startTuned(t, Config{MaxStartups: Startups{Start: 2, Rate: 50, Full: 4}, MaxStartupsPerIP: 100},
		func(s *Server) {
			s.gate.rand = func() float64 {
				mu.Lock()
				defer mu.Unlock()
				d := draws[0]
				draws = draws[1:]
				return d
			}
		})
	// stalled dials, says its version line and then nothing; it reports
	// whether the server answered with its own.
	stalled := func() bool {
		nc := dialFrom(t, "127.0.0.1", srv.addr)
		if _, err := nc.Write([]byte("SSH-2.0-stall\r\n")); err != nil {
			return false
		}
		_ = nc.SetReadDeadline(time.Now().Add(wait))
		line, err := bufio.NewReader(nc).ReadString('\n')
		if err != nil {
			return false
		}
		if !strings.HasPrefix(line, "SSH-2.0-Bivouac") {
			t.Fatalf("server said %q", line)
		}
		eventually(t, func() bool { // the server read ours: the connection is not silent
			srv.gate.mu.Lock()
			defer srv.gate.mu.Unlock()
			return srv.gate.oldestSilent("") == nil
		})
		return true
	}
	// Waiting: 0, 1 (let in), 2 (chance 50%: 0.7 lets in), 3 (75%: 0.6
	// refuses, 0.9 lets in), 4 (full: refused whatever the draw).
	want := []bool{true, true, true, false, true, false}
	for i, w := range want {
		if got := stalled(); got != w {
			t.Errorf("connection %d let in: %v, want %v", i+1, got, w)
		}
	}
}

func TestSilentConnectionIsClosedAtTheVersionDeadline(t *testing.T) {
	srv := start(t, Config{VersionTimeout: 200 * time.Millisecond, HandshakeTimeout: time.Minute})
	began := time.Now()
	silent := dialFrom(t, "127.0.0.1", srv.addr)
	talking := dialFrom(t, "127.0.0.1", srv.addr)
	if _, err := talking.Write([]byte("SSH-2.0-stall\r\n")); err != nil {
		t.Fatal(err)
	}
	if !closedByServer(silent, wait) {
		t.Fatal("a silent connection was not closed")
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("closed after %v; the version deadline is 200ms", d)
	}
	if closedByServer(talking, 300*time.Millisecond) {
		t.Error("a connection that sent its version line was closed at the version deadline")
	}
	if !strings.Contains(srv.logs.String(), "no version line in time") {
		t.Errorf("not logged:\n%s", srv.logs.String())
	}
}

// When the budget in all is spent, the flood's own places go first: the
// silent connection given up is from the address with the most waiting.
func TestTheCrowdedAddressGivesUpItsPlaceFirst(t *testing.T) {
	g := newGate(Startups{Start: 3, Rate: 100, Full: 3}, 10)
	conn := func() *limitedConn { return &limitedConn{closed: make(chan struct{})} }
	lone, _ := g.enter("192.0.2.1", conn()) // the oldest
	g.enter("198.51.100.7", conn())
	g.enter("198.51.100.7", conn())
	st := g.crowdedSilent()
	if st == nil || st.key != "198.51.100.7" {
		t.Fatalf("gave up %+v, want one of the crowded address's", st)
	}
	if g.oldestSilent("") != lone {
		t.Fatal("the oldest is not the lone player's")
	}
}

func TestParseStartups(t *testing.T) {
	if st, err := ParseStartups("10:30:100"); err != nil || st != (Startups{10, 30, 100}) || st.String() != "10:30:100" {
		t.Errorf("10:30:100 → %v, %v", st, err)
	}
	for _, bad := range []string{"", "10", "10:30", "a:b:c", "0:30:100", "10:130:100", "20:30:10", "-1:30:100"} {
		if _, err := ParseStartups(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	st := Startups{Start: 10, Rate: 30, Full: 100}
	for n, want := range map[int]float64{0: 0, 9: 0, 10: 0.3, 55: 0.65, 100: 1, 500: 1} {
		if got := st.dropChance(n); got < want-1e-9 || got > want+1e-9 {
			t.Errorf("dropChance(%d) = %v, want %v", n, got, want)
		}
	}
}
