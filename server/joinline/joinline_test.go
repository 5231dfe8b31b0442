package joinline

import (
	"errors"
	"net"
	"slices"
	"testing"
)

func fakeNetwork(hostname string, resolves bool, addrs ...string) network {
	return network{
		hostname: func() (string, error) { return hostname, nil },
		lookup: func(string) ([]string, error) {
			if resolves {
				return []string{"192.0.2.7"}, nil
			}
			return nil, errors.New("no such host")
		},
		addresses: func() ([]net.Addr, error) {
			var out []net.Addr
			for _, a := range addrs {
				ip, n, err := net.ParseCIDR(a)
				if err != nil {
					panic(err)
				}
				n.IP = ip
				out = append(out, n)
			}
			return out, nil
		},
	}
}

// The join line names what friends elsewhere can reach: never a short
// host name that resolves only here, every non-loopback address the
// server listens on, or what the operator said.
func TestJoinHosts(t *testing.T) {
	t.Parallel()
	lan := []string{"127.0.0.1/8", "192.168.1.20/24", "::1/128", "fe80::1/64", "2001:db8::5/64"}
	tests := []struct {
		name   string
		n      network
		listen string
		public string
		want   []string
	}{
		{"short name is left out", fakeNetwork("vm", true, lan...), ":2222", "", []string{"192.168.1.20", "2001:db8::5"}},
		{"full name that resolves comes first", fakeNetwork("camp.example.org", true, lan...), "[::]:2222", "", []string{"camp.example.org", "192.168.1.20", "2001:db8::5"}},
		{"full name that does not resolve is left out", fakeNetwork("camp.example.org", false, lan...), "0.0.0.0:2222", "", []string{"192.168.1.20", "2001:db8::5"}},
		{"one address", fakeNetwork("vm", true, lan...), "192.168.1.20:2222", "", []string{"192.168.1.20"}},
		{"loopback only", fakeNetwork("vm", true, lan...), "127.0.0.1:2222", "", []string{"localhost"}},
		{"no interfaces", fakeNetwork("vm", true), ":2222", "", []string{"localhost"}},
		{"a host name in --addr", fakeNetwork("vm", true, lan...), "bivouac.lan:2222", "", []string{"bivouac.lan"}},
		{"--public-host wins", fakeNetwork("camp.example.org", true, lan...), ":2222", "games.example.net", []string{"games.example.net"}},
	}
	for _, tt := range tests {
		if got := tt.n.joinHosts(tt.listen, tt.public); !slices.Equal(got, tt.want) {
			t.Errorf("%s: joinHosts(%q, %q) = %q, want %q", tt.name, tt.listen, tt.public, got, tt.want)
		}
	}
	if got := Command("2222", "camp.example.org"); got != "ssh -p 2222 camp.example.org" {
		t.Errorf("joinCommand = %q", got)
	}
	if got := Command("22", "camp.example.org"); got != "ssh camp.example.org" {
		t.Errorf("joinCommand on port 22 = %q", got)
	}
}

// A command line that needs a terminal asks for one; a code goes where
// the user name goes, before the host.
func TestTerminalAndUser(t *testing.T) {
	if got, want := WithTerminal("ssh -p 2222 camp.example.org"), "ssh -t -p 2222 camp.example.org"; got != want {
		t.Errorf("WithTerminal = %q, want %q", got, want)
	}
	if got, want := AsUser("ssh -p 2222 camp.example.org", "g-abcd"), "ssh -p 2222 g-abcd@camp.example.org"; got != want {
		t.Errorf("AsUser = %q, want %q", got, want)
	}
}
