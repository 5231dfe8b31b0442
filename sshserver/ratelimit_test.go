package sshserver

import (
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestLimitedConnThrottlesFloods(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	lc := newLimitedConn(server, 1<<20, 64<<10) // 1 MiB/s after 64 KiB
	defer lc.Close()
	go func() {
		_, _ = client.Write(make([]byte, 320<<10))
		client.Close()
	}()
	start := time.Now()
	n, err := io.Copy(io.Discard, lc)
	if err != nil || n != 320<<10 {
		t.Fatalf("read %d, %v", n, err)
	}
	// 256 KiB over the burst at 1 MiB/s: at least 250 ms.
	if d := time.Since(start); d < 240*time.Millisecond {
		t.Errorf("320 KiB read in %v; the limit should make it take 250 ms", d)
	}
}

func TestLimitedConnSmallInputIsNotDelayed(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	lc := newLimitedConn(server, 1<<10, 64<<10)
	defer lc.Close()
	go func() { _, _ = client.Write([]byte("typing a chat line\r")) }()
	buf := make([]byte, 64)
	if _, err := lc.Read(buf); err != nil {
		t.Fatal(err)
	}
	// A Read waits exactly when its bytes leave the bucket in debt; a
	// wall-clock bound would measure the machine's load instead.
	if tokens := lc.lim.TokensAt(time.Now()); tokens < 0 {
		t.Errorf("a short line left the budget %v bytes in debt: it waited", -tokens)
	}
}

func TestLimitedConnCloseEndsTheWait(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	lc := newLimitedConn(server, 1, 16) // 1 byte/s: a 1 KiB read owes ~17 minutes
	go func() { _, _ = client.Write(make([]byte, 16)); _, _ = client.Write(make([]byte, 16)) }()
	buf := make([]byte, 16)
	if _, err := lc.Read(buf); err != nil { // the burst
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_, _ = lc.Read(buf) // in debt: waits ~16 s unless closed
		close(done)
	}()
	time.AfterFunc(50*time.Millisecond, func() { lc.Close() })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a throttled Read")
	}
}

// chunks is a reader that returns one chunk per Read.
type chunks [][]byte

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	*c = (*c)[1:]
	return n, nil
}

// Typing and a pasted chat line pass whole; a flood is dropped read by read
// (never cut inside a key), and the program is told (issue 12 item 4).
func TestTypingBudgetDropsFloodsNotTyping(t *testing.T) {
	in := chunks{[]byte("j"), []byte("\x1b[A"), []byte("\x1b[200~" + string(make([]byte, 800)) + "\x1b[201~")}
	for range 64 {
		in = append(in, make([]byte, 32<<10)) // a 2 MB paste, as an ssh client sends it
	}
	in = append(in, []byte("q"))
	tb := newTypingBudget(&in, nil)
	var got [][]byte
	buf := make([]byte, 64<<10)
	for {
		n, err := tb.Read(buf)
		if n > 0 {
			got = append(got, append([]byte(nil), buf[:n]...))
		}
		if err != nil {
			break
		}
	}
	if len(got) != 4 || string(got[0]) != "j" || string(got[1]) != "\x1b[A" || len(got[2]) != 812 || string(got[3]) != "q" {
		t.Fatalf("typing, the chat paste and the key after the flood should pass whole: got %d reads", len(got))
	}
	if tb.lost.Load() < 2<<20 {
		t.Errorf("only %d bytes of the flood dropped", tb.lost.Load())
	}
	select {
	case <-tb.dropped:
	default:
		t.Error("the drop was not signalled")
	}
}

// The budget of an address is shared by its sessions and survives a
// reconnect; another address has its own.
func TestTypingBudgetPerAddressOutlivesTheConnection(t *testing.T) {
	b := typingBudgets{perIP: 1}
	now := time.Now()
	first := b.forAddr("192.0.2.1", now)
	paste := func(lim *rate.Limiter) bool {
		in := chunks{make([]byte, 2<<10)}
		n, _ := newTypingBudget(&in, lim).Read(make([]byte, 4<<10))
		return n > 0
	}
	for i := range typingBurstPerIP / (2 << 10) {
		if !paste(b.forAddr("192.0.2.1", now)) { // a new session, and a new connection, each time
			t.Fatalf("paste %d refused within the address's burst", i)
		}
	}
	if paste(b.forAddr("192.0.2.1", now)) {
		t.Fatal("reconnecting refilled the address's budget")
	}
	if b.forAddr("192.0.2.1", now) != first {
		t.Fatal("the address got a new limiter")
	}
	if !paste(b.forAddr("198.51.100.9", now)) {
		t.Fatal("another address pays for the first one")
	}
	if b.forAddr("192.0.2.1", now.Add(typingForget+time.Minute)) != first {
		t.Fatal("a recent address was forgotten")
	}
	off := typingBudgets{}
	if off.forAddr("192.0.2.1", now) != nil {
		t.Fatal("no budget per address was asked for")
	}
}
