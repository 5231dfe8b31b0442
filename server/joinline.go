package server

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
)

// network is what joinHosts asks of the machine; tests replace it.
type network struct {
	hostname  func() (string, error)
	lookup    func(host string) ([]string, error)
	addresses func() ([]net.Addr, error)
}

var machine = network{hostname: os.Hostname, lookup: net.LookupHost, addresses: net.InterfaceAddrs}

// joinHosts are the names friends can type after `ssh -p PORT`, best first:
// publicHost alone when the operator set one (--public-host); otherwise
// the machine's host name when it is a full name that resolves, then every
// non-loopback address the server listens on. A short name such as "vm"
// resolves only here, so it is left out. "localhost" when nothing else is
// reachable.
func (n network) joinHosts(listenAddr, publicHost string) []string {
	if publicHost != "" {
		return []string{publicHost}
	}
	var hosts []string
	if h, err := n.hostname(); err == nil && strings.Contains(strings.Trim(h, "."), ".") {
		if addrs, err := n.lookup(h); err == nil && len(addrs) > 0 {
			hosts = append(hosts, h)
		}
	}
	host, _, err := net.SplitHostPort(listenAddr)
	if err != nil {
		host = listenAddr
	}
	ip, err := netip.ParseAddr(host)
	switch {
	case err != nil && host != "" && host != "localhost": // --addr named a host
		hosts = append(hosts, host)
	case err == nil && !ip.IsUnspecified() && !ip.IsLoopback(): // one address
		hosts = append(hosts, ip.String())
	case host == "" || (err == nil && ip.IsUnspecified()): // every interface
		addrs, _ := n.addresses()
		for _, a := range addrs {
			pfx, err := netip.ParsePrefix(a.String())
			if err != nil {
				continue
			}
			ip := pfx.Addr()
			if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsMulticast() {
				continue
			}
			hosts = append(hosts, ip.String())
		}
	}
	if len(hosts) == 0 {
		hosts = []string{"localhost"}
	}
	return hosts
}

// JoinHosts are the names friends can type after `ssh -p PORT` to reach a
// server listening on listenAddr, best first (see network.joinHosts).
func JoinHosts(listenAddr, publicHost string) []string {
	return machine.joinHosts(listenAddr, publicHost)
}

// JoinCommand is the ssh line for one host (IPv6 addresses need no
// brackets for ssh).
func JoinCommand(port, host string) string {
	if port == "22" {
		return "ssh " + host
	}
	return fmt.Sprintf("ssh -p %s %s", port, host)
}
