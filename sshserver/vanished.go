package sshserver

import (
	"net"
	"time"
)

// Finding a client that vanished (a laptop shut or gone from its network,
// nothing sent to say so) is the kernel's job: TCP keepalives probe a
// connection that has been silent for a while and the kernel ends it when
// the probes go unanswered, with no wake-up of the server at all. Server
// keepalives at the SSH level did it before, every 30 s for every silent
// connection: with 10,000 players idle that was a write, a read and a
// goroutine 170 times a second, two thirds of the idle server's CPU
// (docs/PERFORMANCE.md). They are kept, far less often, for what only
// they see: a client whose machine answers but whose program hung.

// vanishedProbes is how many unanswered TCP keepalive probes the kernel
// sends before it gives a connection up (with TCP_USER_TIMEOUT, the
// deadline decides, the count only spaces them).
const vanishedProbes = 4

// watchForVanishing sets conn's TCP keepalives so that the kernel ends it
// within after of the last packet that came from the client: probes start
// after half of that in silence, then come every eighth, and
// TCP_USER_TIMEOUT bounds the same wait when data sent to the client goes
// unacknowledged (keepalives are not sent then, and retransmissions alone
// would keep the connection for about a quarter of an hour).
func watchForVanishing(conn net.Conn, after time.Duration) error {
	tc, ok := conn.(*net.TCPConn)
	if !ok || after <= 0 {
		return nil
	}
	idle := after / 2
	if err := tc.SetKeepAliveConfig(net.KeepAliveConfig{Enable: true, Idle: idle,
		Interval: (after - idle) / vanishedProbes, Count: vanishedProbes}); err != nil {
		return err
	}
	return setUserTimeout(tc, after)
}
