package porch

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

func open(t *testing.T) (*Porch, string) {
	t.Helper()
	key, _, err := hostkeys.Ensure(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(l, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, l.Addr().String()
}

// A session that arrives while the server starts is told so, in its
// language, and ends cleanly, with or without a terminal.
func TestAnEarlySessionHearsTheServerIsStarting(t *testing.T) {
	_, addr := open(t)
	for _, tc := range []struct {
		name string
		opts []sshtest.Option
		want string
	}{
		{"en", nil, "this server is starting: try again in a few seconds"},
		{"pl without a terminal", []sshtest.Option{sshtest.WithEnv("LANG", "pl_PL.UTF-8"), sshtest.WithoutPTY()}, "ten serwer właśnie się uruchamia"},
		{"guest", []sshtest.Option{sshtest.AsGuest()}, "this server is starting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sshtest.Dial(t, addr, tc.opts...)
			c.Expect(t, tc.want, 5*time.Second)
			if code := c.Wait(t, 5*time.Second); code != 1 {
				t.Fatalf("exit status %d, want 1", code)
			}
		})
	}
}

// After Handover the server's listener gets the connections; closing it
// closes the port.
func TestHandoverGivesTheServerTheConnections(t *testing.T) {
	p, addr := open(t)
	l := p.Handover()
	if l.Addr().String() != addr {
		t.Fatalf("handed listener on %s, want %s", l.Addr(), addr)
	}
	got := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			got <- c
		}
	}()
	d, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	select {
	case c := <-got:
		c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("the handed listener accepted nothing")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept after Close: %v, want net.ErrClosed", err)
	}
	if _, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr); err == nil {
		t.Fatal("the port still accepts after Close")
	}
}
