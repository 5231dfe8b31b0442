//go:build !linux

package sshserver

import (
	"net"
	"time"
)

// setUserTimeout: only Linux has TCP_USER_TIMEOUT; elsewhere the
// keepalives' count alone ends a silent connection.
func setUserTimeout(*net.TCPConn, time.Duration) error { return nil }
