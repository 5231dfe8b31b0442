package natsnode

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// FreeLoopbackAddrs finds n loopback addresses whose ports are free now:
// held all at once, so they differ, then let go, since every node of a
// cluster must know its peers' routes before any starts.
//
// The ports come from below the kernel's ephemeral range. A port the
// kernel handed out for ":0" is one it may hand out again as the source
// port of any outgoing connection: a busy test run (or a node dialling a
// peer that has not started yet) then holds the route port, and the peer
// cannot listen. Below the range only another process choosing ports by
// hand can collide.
func FreeLoopbackAddrs(n int) ([]string, error) {
	var out []string
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	lo, hi := handPickedPorts()
	for tries := 0; len(out) < n; tries++ {
		if tries > 64*n {
			return nil, fmt.Errorf("natsnode: no %d free loopback ports in %d–%d", n, lo, hi)
		}
		port := lo + rand.IntN(hi-lo)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		held = append(held, l)
		out = append(out, l.Addr().String())
	}
	return out, nil
}

// handPickedPorts is the range FreeLoopbackAddrs draws from: the 12,000
// ports just below the ephemeral range (32768 by default on Linux).
func handPickedPorts() (lo, hi int) {
	hi = 32768
	if raw, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(raw)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil && v > 2048 {
				hi = v
			}
		}
	}
	lo = max(hi-12000, 1024)
	return lo, hi
}
