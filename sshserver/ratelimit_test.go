package sshserver

import (
	"io"
	"net"
	"testing"
	"time"
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
	start := time.Now()
	if _, err := lc.Read(buf); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("a short line waited %v", d)
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
