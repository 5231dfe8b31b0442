package server

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// Issue 36 item 6: the admin socket's backup stream had no write
// deadline, so a reader that stopped reading held its goroutine (and,
// before the spool, the store) for good.
func TestABackupReaderThatStopsIsGivenUp(t *testing.T) {
	server, client := net.Pipe() // no buffer: a write waits for a read
	defer client.Close()
	defer server.Close()
	w := stallLimit{server, 50 * time.Millisecond}
	done := make(chan error, 1)
	go func() {
		_, err := w.Write([]byte("backup bytes"))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("a write nobody reads ended with %v, want the deadline", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a write nobody reads still waits")
	}
	go func() { _, _ = client.Read(make([]byte, 64)) }()
	if _, err := w.Write([]byte("more")); err != nil {
		t.Errorf("a write that is read failed: %v", err)
	}
}
