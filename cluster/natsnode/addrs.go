package natsnode

import "net"

// FreeLoopbackAddrs finds n loopback addresses whose ports are free now:
// held all at once, so they differ, then let go, since every node of a
// cluster must know its peers' routes before any starts. Another process
// could take one in between; on loopback that is rare enough for tests
// and the load harness.
func FreeLoopbackAddrs(n int) ([]string, error) {
	var out []string
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		held = append(held, l)
		out = append(out, l.Addr().String())
	}
	return out, nil
}
