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

// dialStalling is dialFrom with the client's version line sent, and
// nothing after: a handshake that stalls.
func dialStalling(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	nc := dialFrom(t, ip, addr)
	if _, err := nc.Write([]byte("SSH-2.0-stall\r\n")); err != nil {
		t.Fatal(err)
	}
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
// from Start waiting, a newcomer comes in with a chance of Rate% growing to
// 100% at Full that another gives its place up. Never the newcomer: the
// oldest of the most crowded address goes (here there is one address).
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
	var conns []net.Conn
	// stalled dials, says its version line and then nothing, and waits for
	// the server's own line.
	stalled := func() {
		nc := dialStalling(t, "127.0.0.1", srv.addr)
		_ = nc.SetReadDeadline(time.Now().Add(wait))
		line, err := bufio.NewReader(nc).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "SSH-2.0-Bivouac") {
			t.Fatalf("server said %q, %v", line, err)
		}
		eventually(t, func() bool { return noneSilent(srv) }) // the server read ours
		conns = append(conns, nc)
	}
	// Waiting: 0, 1 (joins), 2 (chance 50%: 0.7 joins), 3 (75%: 0.6 takes
	// the oldest's place, 0.9 joins), 4 (full: takes a place whatever the
	// draw).
	gaveUp := []int{-1, -1, -1, 0, -1, 1}
	for i, g := range gaveUp {
		stalled()
		if g < 0 {
			continue
		}
		if !closedByServer(conns[g], wait) {
			t.Errorf("connection %d: connection %d kept its place", i+1, g+1)
		}
	}
	if total, _ := srv.gate.counts("127.0.0.1"); total != 4 {
		t.Errorf("%d waiting, want the 4 of the budget", total)
	}
}

// noneSilent: every connection in the gate has sent its version line.
func noneSilent(srv *testServer) bool {
	srv.gate.mu.Lock()
	defer srv.gate.mu.Unlock()
	for e := srv.gate.waiting.Front(); e != nil; e = e.Next() {
		if e.Value.(*startup).silent() {
			return false
		}
	}
	return true
}

func TestSilentConnectionIsClosedAtTheVersionDeadline(t *testing.T) {
	srv := start(t, Config{VersionTimeout: 200 * time.Millisecond, HandshakeTimeout: time.Minute})
	began := time.Now()
	silent := dialFrom(t, "127.0.0.1", srv.addr)
	talking := dialStalling(t, "127.0.0.1", srv.addr)
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
// one given up is from the address with the most waiting, a silent one
// before one that spoke, and never the newcomer's place.
func TestTheCrowdedAddressGivesUpItsPlaceFirst(t *testing.T) {
	g := newGate(Startups{Start: 4, Rate: 100, Full: 4}, 10)
	g.rand = func() float64 { return 0 }
	conn := func(spoke bool) *limitedConn {
		c := &limitedConn{closed: make(chan struct{})}
		c.spoke.Store(spoke)
		return c
	}
	lone, _ := g.enter("192.0.2.1", conn(true)) // the oldest
	talking, _ := g.enter("198.51.100.7", conn(true))
	silent, _ := g.enter("198.51.100.7", conn(false))
	g.enter("203.0.113.9", conn(true))
	// Full: a newcomer from a fresh address takes the crowded address's
	// silent connection's place, though the lone player's is older.
	if _, out := g.enter("203.0.113.50", conn(true)); out != silent {
		t.Fatalf("gave up %+v, want the crowded address's silent one", out)
	}
	if _, out := g.enter("203.0.113.51", conn(true)); out != lone {
		t.Fatalf("gave up %+v, want the oldest of the equally crowded", out)
	}
	// A newcomer from an address as crowded as any gives up its own.
	if _, out := g.enter("198.51.100.7", conn(true)); out != talking {
		t.Fatalf("gave up %+v, want its own address's oldest", out)
	}
	if total, _ := g.counts(""); total != 4 {
		t.Errorf("%d waiting, want 4", total)
	}
	if !g.leave(lone) || g.leave(&startup{}) {
		t.Error("leave does not say who gave its place up")
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
