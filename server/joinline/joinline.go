// Package joinline writes the ssh line that reaches this server: the
// one the lobby, `help` and the start-up banner show, with a terminal
// asked for, or with a guest or invite code as the user name.
package joinline

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

// Hosts are the names friends can type after `ssh -p PORT` to reach a
// server listening on listenAddr, best first (see network.joinHosts).
func Hosts(listenAddr, publicHost string) []string {
	return machine.joinHosts(listenAddr, publicHost)
}

// Command is the ssh line for one host (IPv6 addresses need no
// brackets for ssh).
func Command(port, host string) string {
	if port == "22" {
		return "ssh " + host
	}
	return fmt.Sprintf("ssh -p %s %s", port, host)
}

// For is the ssh line to a server listening on listenAddr: on its port,
// to the best of its Hosts.
func For(listenAddr, publicHost string) string {
	_, port, _ := net.SplitHostPort(listenAddr)
	if port == "" {
		port = "2222"
	}
	return Command(port, Hosts(listenAddr, publicHost)[0])
}

// WithTerminal adds ssh's -t (a terminal even with a command) to a join
// line.
func WithTerminal(join string) string { return strings.Replace(join, "ssh ", "ssh -t ", 1) }

// AsUser is the join line with user (a guest's or an invite's code) as
// the user name.
func AsUser(join, user string) string {
	if i := strings.LastIndexByte(join, ' '); i > 0 {
		return join[:i+1] + user + "@" + join[i+1:]
	}
	return join + " " + user + "@host"
}
