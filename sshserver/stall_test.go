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

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// refusalCount is a Deps.Refused that counts by reason.
type refusalCount struct {
	mu sync.Mutex
	by map[Refusal]int
}

func (r *refusalCount) add(why Refusal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by == nil {
		r.by = map[Refusal]int{}
	}
	r.by[why]++
}

func (r *refusalCount) of(why Refusal) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.by[why]
}

// stallFrom dials srv from ip, sends its version line and says nothing
// more, again and again (at most once a second) until stop is closed:
// one place of the flood of issue 36 item 1.
func stallFrom(ip, addr string, stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: time.Second}
		if nc, err := d.Dial("tcp", addr); err == nil {
			go func() { <-stop; nc.Close() }()
			if _, err := nc.Write([]byte("SSH-2.0-OpenSSH_9.9\r\n")); err == nil {
				_, _ = io.Copy(io.Discard, nc) // until the server closes it
			}
			nc.Close()
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// Issue 36 item 1: 15 addresses × 8 connections that send a version line
// and stall, redialling, kept the gate full: no new player got in for as
// long as it ran. Now a player from another address logs in within 5 s,
// every time, and so does one on a slow link (a 300 ms round trip).
func TestStalledHandshakesFromManyAddressesKeepNoOneOut(t *testing.T) {
	refusals := &refusalCount{}
	srv := start(t, Config{}, Deps{Programs: testPrograms, Command: testCommand, Refused: refusals.add})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for a := range 15 {
		for range 8 {
			wg.Add(1)
			go stallFrom(fmt.Sprintf("127.0.0.%d", a+2), srv.addr, stop, &wg)
		}
	}
	t.Cleanup(func() { close(stop); wg.Wait() })
	// The flood fills the gate (10:30:100) and its places churn.
	clocktest.CheckFor(t, 10*time.Second, 10*time.Millisecond, func() error {
		if total, _ := srv.gate.counts(""); total < 90 || refusals.of(RefusedGate) == 0 {
			return fmt.Errorf("%d waiting, %d given up", total, refusals.of(RefusedGate))
		}
		return nil
	})
	for i := range 5 {
		began := time.Now()
		c, err := sshtest.DialE(t, srv.addr, sshtest.From("127.0.0.100"), sshtest.WithTimeout(5*time.Second))
		if err != nil {
			t.Fatalf("login %d refused after %v: %v", i+1, time.Since(began), err)
		}
		c.ExpectScreen(t, `who SHA256`, 5*time.Second)
		if took := time.Since(began); took > 5*time.Second {
			t.Errorf("login %d took %v", i+1, took)
		}
		c.Close()
	}
	slow := sshtest.SlowLink(t, srv.addr, "127.0.0.101", 150*time.Millisecond)
	began := time.Now()
	c, err := sshtest.DialE(t, slow, sshtest.WithTimeout(15*time.Second))
	if err != nil {
		t.Fatalf("a player on a slow link was refused after %v: %v", time.Since(began), err)
	}
	c.ExpectScreen(t, `who SHA256`, 15*time.Second)
	t.Logf("on a 300 ms round trip, in after %v", time.Since(began).Round(time.Millisecond))
	if total, _ := srv.gate.counts(""); total > srv.cfg.MaxStartups.Full {
		t.Errorf("%d waiting to log in, budget %d", total, srv.cfg.MaxStartups.Full)
	}
}

// A handshake that stalls past a deadline is closed, at each of its three
// steps, and its address owes a penalty: two stalls keep it out, while
// another address comes in.
func TestStalledHandshakesArePenalized(t *testing.T) {
	refusals := &refusalCount{}
	srv := start(t, Config{VersionTimeout: 300 * time.Millisecond, KexTimeout: 300 * time.Millisecond,
		HandshakeTimeout: 900 * time.Millisecond}, Deps{Programs: testPrograms, Command: testCommand, Refused: refusals.add})

	// After its version line, no key exchange.
	began := time.Now()
	talker := dialStalling(t, "127.0.0.60", srv.addr)
	if !closedByServer(talker, wait) {
		t.Fatal("a connection that stalled after its version line was not closed")
	}
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("closed after %v; its key exchange was due 300 ms after its version line", took)
	}
	if srv.penalties.keptOut(ipKey(talker.RemoteAddr())) != 0 {
		t.Error("one stalled handshake keeps its address out (under PenaltyMin)")
	}

	// After the key exchange, no authentication: the client waits for
	// keys it never gets.
	blocked := make(chan struct{})
	began = time.Now()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.60")}}
	nc, err := d.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	loggedIn := make(chan error, 1)
	go func() {
		_, _, _, err := gossh.NewClientConn(nc, srv.addr, &gossh.ClientConfig{User: "x",
			HostKeyCallback: gossh.InsecureIgnoreHostKey(),
			Auth: []gossh.AuthMethod{gossh.PublicKeysCallback(func() ([]gossh.Signer, error) {
				<-blocked
				return nil, nil
			})}})
		loggedIn <- err
	}()
	clocktest.CheckFor(t, wait, 5*time.Millisecond, func() error {
		if !strings.Contains(srv.logs.String(), "not authenticated in time") {
			return fmt.Errorf("not closed")
		}
		return nil
	})
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("closed after %v; authentication was due 900 ms after accept", took)
	}
	close(blocked)
	if err := <-loggedIn; err == nil {
		t.Fatal("a client that never authenticated got in")
	}
	for _, want := range []string{"no key exchange in time", "not authenticated in time", "refused=stalled"} {
		if !strings.Contains(srv.logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}

	// Two stalls: 20 s owed, over PenaltyMin. The next connection from
	// there is closed at once, unanswered.
	clocktest.CheckFor(t, wait, 5*time.Millisecond, func() error {
		if srv.penalties.keptOut("127.0.0.60") == 0 {
			return fmt.Errorf("not kept out")
		}
		return nil
	})
	again := dialFrom(t, "127.0.0.60", srv.addr)
	_ = again.SetReadDeadline(time.Now().Add(wait))
	if line, err := bufio.NewReader(again).ReadString('\n'); err == nil {
		t.Errorf("a penalized address was answered: %q", line)
	}
	other := sshtest.Dial(t, srv.addr, sshtest.From("127.0.0.61"))
	other.ExpectScreen(t, `who SHA256`, wait)
	if refusals.of(RefusedStalled) != 2 || refusals.of(RefusedPenalty) != 1 {
		t.Errorf("refusals counted: %v", refusals.by)
	}
}

func TestPenaltiesAddUpRunOutAndAreBounded(t *testing.T) {
	clk := clocktest.New()
	p := newPenalties(clk.Now)
	p.add("a", PenaltyStalled)
	if p.keptOut("a") != 0 {
		t.Fatal("kept out below PenaltyMin")
	}
	p.add("a", PenaltyStalled)
	if got := p.keptOut("a"); got != 2*PenaltyStalled {
		t.Fatalf("kept out %v, want %v", got, 2*PenaltyStalled)
	}
	if p.keptOut("b") != 0 {
		t.Fatal("another address kept out")
	}
	clk.Advance(2*PenaltyStalled - time.Second)
	if p.keptOut("a") != time.Second {
		t.Fatalf("kept out %v with a second left", p.keptOut("a"))
	}
	clk.Advance(time.Second)
	if p.keptOut("a") != 0 {
		t.Fatal("still kept out once paid")
	}
	for range 1000 {
		p.add("c", PenaltyStalled)
	}
	if got := p.keptOut("c"); got != PenaltyMax {
		t.Fatalf("kept out %v, want at most %v", got, PenaltyMax)
	}
	for range 15 {
		p.add("d", PenaltyNoAuth)
	}
	if p.keptOut("d") != 0 {
		t.Fatal("15 s of abandoned handshakes keep an address out; PenaltyMin is 15 s")
	}
	p.add("d", PenaltyNoAuth)
	if p.keptOut("d") == 0 {
		t.Fatal("16 abandoned handshakes at once do not keep an address out")
	}
	for i := range penaltyEntries + 10 {
		p.add(fmt.Sprint("flood", i), PenaltyNoAuth)
	}
	if n := len(p.by); n > penaltyEntries {
		t.Fatalf("%d addresses remembered, at most %d", n, penaltyEntries)
	}
}
