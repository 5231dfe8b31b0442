package natsnode

import (
	"errors"
	"net"
)

// ErrRoutesInClear: a cluster node would open routes off this machine
// without TLS, and every route starts with the cluster's shared password;
// the rooms' traffic (every hand) follows in clear. Start refuses it unless
// Config.InsecureRoutes accepts it.
var ErrRoutesInClear = errors.New("cluster routes leave this machine without TLS: the cluster password and every hand would cross the network in clear")

// RoutesInClear lists cfg's route addresses (its own ClusterAddr and its
// Peers) that are not loopback, when cfg is a cluster node without TLS;
// nil otherwise. An address is loopback only as an IP literal or
// "localhost": a host name or an empty host (every interface) is not.
func (cfg Config) RoutesInClear() []string {
	if cfg.Cluster == "" || cfg.TLS != nil {
		return nil
	}
	own := cfg.ClusterAddr
	if own == "" {
		own = DefaultClusterAddr
	}
	var out []string
	for _, addr := range append([]string{own}, cfg.Peers...) {
		if !isLoopback(addr) {
			out = append(out, addr)
		}
	}
	return out
}

// isLoopback reports whether host:port names this machine's loopback.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
