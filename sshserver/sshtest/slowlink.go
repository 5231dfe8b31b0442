package sshtest

import (
	"net"
	"sync"
	"testing"
	"time"
)

// SlowLink is a loopback proxy to target that holds every chunk of bytes,
// each way, for delay before passing it on (a round trip of twice delay,
// as on a slow mobile link), dialling target from the local IP from (any
// of 127.0.0.0/8 on Linux; "" for any). Dial its address to reach target
// over the slow link. It stops, with every connection through it, at the
// test's cleanup.
func SlowLink(t testing.TB, target, from string, delay time.Duration) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	keep := func(c net.Conn) {
		mu.Lock()
		defer mu.Unlock()
		conns = append(conns, c)
	}
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	d := net.Dialer{Timeout: 5 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := d.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			keep(in)
			keep(out)
			wg.Add(2)
			go func() { defer wg.Done(); delayCopy(out, in, delay) }()
			go func() { defer wg.Done(); delayCopy(in, out, delay) }()
		}
	}()
	return l.Addr().String()
}

// delayCopy copies src to dst, each chunk delay after it was read, in
// order; it closes both when either side ends.
func delayCopy(dst, src net.Conn, delay time.Duration) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	queue := make(chan chunk, 1024)
	go func() {
		defer close(queue)
		for {
			b := make([]byte, 32<<10)
			n, err := src.Read(b)
			if n > 0 {
				queue <- chunk{b[:n], time.Now().Add(delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	defer dst.Close()
	defer src.Close()
	for c := range queue {
		if wait := time.Until(c.at); wait > 0 {
			t := time.NewTimer(wait) // the link's latency, not a wait for an event
			<-t.C
		}
		if _, err := dst.Write(c.b); err != nil {
			src.Close() // ends the reader, which closes queue
			for range queue {
			}
			return
		}
	}
}
