package notify

// The operator's list of destination hosts (--notify-hosts) and the
// checks a player's webhook URL passes before it is kept and again before
// anything is sent to it.

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/words"
)

// Allowed is one destination host the operator lets notifications go to.
type Allowed struct {
	Host string // a lower-case name, or an IP address (no brackets)
	// Port, when set, is the only port allowed; "" allows only the
	// scheme's default (443, or 80 for plain HTTP).
	Port string
	// HTTP: listed as http://, so plain HTTP may go there (else HTTPS only).
	HTTP bool
	addr netip.Addr // Host as an address, when it is one
}

// IsAddr reports whether the entry names an address rather than a host name.
func (a Allowed) IsAddr() bool { return a.addr.IsValid() }

// String is the entry as the operator would write it.
func (a Allowed) String() string {
	s := a.Host
	if a.addr.Is6() {
		s = "[" + s + "]"
	}
	if a.Port != "" {
		s += ":" + a.Port
	}
	if a.HTTP {
		s = "http://" + s
	}
	return s
}

// MaxHosts bounds --notify-hosts: a list is read at every check.
const MaxHosts = 64

// hostName is what a listed or given host name may look like: letters,
// digits, dashes and dots (an international name in its xn-- form).
var hostName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// numericLabel is a label of a host that some resolvers read as part of an
// IPv4 address written oddly (127.1, 0x7f.0.0.1, 2130706433).
var numericLabel = regexp.MustCompile(`^(0x[0-9a-f]*|[0-9]+)$`)

// ParseHosts reads the operator's list: entries separated by commas or
// spaces, each `host`, `host:port`, `http://host[:port]` or
// `https://host[:port]`, an IPv6 address in brackets.
func ParseHosts(list string) ([]Allowed, error) {
	var out []Allowed
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		a, err := parseHost(f)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	if len(out) > MaxHosts {
		return nil, fmt.Errorf("notify hosts: %d entries, at most %d", len(out), MaxHosts)
	}
	return out, nil
}

func parseHost(entry string) (Allowed, error) {
	s, a := strings.ToLower(strings.TrimSuffix(entry, "/")), Allowed{}
	switch {
	case strings.HasPrefix(s, "http://"):
		s, a.HTTP = s[len("http://"):], true
	case strings.HasPrefix(s, "https://"):
		s = s[len("https://"):]
	case strings.Contains(s, "://"):
		return a, fmt.Errorf("notify hosts: %q: only http:// and https:// hosts", entry)
	}
	if strings.ContainsAny(s, "/@?#*") {
		return a, fmt.Errorf("notify hosts: %q: a host, with a port at most (no path, user or wildcard)", entry)
	}
	host, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		host, port = h, p
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		host = s[1 : len(s)-1]
	}
	if port != "" && !validPort(port) {
		return a, fmt.Errorf("notify hosts: %q: bad port", entry)
	}
	a.Host, a.Port = strings.TrimSuffix(host, "."), port
	if ip, err := netip.ParseAddr(a.Host); err == nil {
		if ip.Zone() != "" {
			return a, fmt.Errorf("notify hosts: %q: an address with a zone", entry)
		}
		a.addr = ip.Unmap()
		a.Host = a.addr.String()
		return a, nil
	}
	if !hostName.MatchString(a.Host) || looksNumeric(a.Host) {
		return a, fmt.Errorf("notify hosts: %q: not a host name", entry)
	}
	return a, nil
}

func validPort(p string) bool {
	if len(p) == 0 || len(p) > 5 || p[0] == '0' {
		return false
	}
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 65535
}

// looksNumeric reports a host whose every label is a number: an IPv4
// address in a form some resolvers take (127.1, 0x7f000001) and net does
// not, refused rather than guessed at.
func looksNumeric(host string) bool {
	for l := range strings.SplitSeq(host, ".") {
		if !numericLabel.MatchString(l) {
			return false
		}
	}
	return true
}

// MaxURL bounds a webhook URL, in bytes.
const MaxURL = 512

// Policy is what the operator allows: notifications on or off, and the
// destination hosts. Its zero value allows nothing.
type Policy struct {
	On    bool
	Hosts []Allowed
}

// Refusal is a webhook URL, or an address it led to, that the policy
// refuses: Reason is one of the Reason values, Msg what the player reads.
type Refusal struct {
	Reason Reason
	Msg    words.Msg
}

func (r *Refusal) Error() string {
	return "notify: refused: " + string(r.Reason) + ": " + r.Msg.String()
}

func refuse(reason Reason, key string, args ...words.Arg) *Refusal {
	return &Refusal{Reason: reason, Msg: words.M(key, args...)}
}

// Check reads a webhook URL a player gives and says whether it may be
// kept: notifications on, http or https, a listed host on an allowed
// port, and, for an address given as such, not a special one (loopback,
// private, link-local, the cloud metadata address…) unless that very
// address is listed. A host name is checked again when it is dialled
// (Client), since what it resolves to may change.
func (p Policy) Check(raw string) (*url.URL, error) {
	if !p.On {
		return nil, refuse(ReasonOff, "notify.err.off")
	}
	if len(raw) > MaxURL {
		return nil, refuse(ReasonInvalid, "notify.err.too_long", words.Num("Max", MaxURL))
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return nil, refuse(ReasonInvalid, "notify.err.not_url")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, refuse(ReasonInvalid, "notify.err.scheme")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return nil, refuse(ReasonInvalid, "notify.err.fragment")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	port := u.Port()
	if port != "" && !validPort(port) {
		return nil, refuse(ReasonInvalid, "notify.err.not_url")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		if class := Classify(ip); class != "" && !p.listedAddr(ip) {
			return nil, refuse(ReasonAddress, "notify.err.address."+string(class), words.Text("Host", ip.String()))
		}
		host = ip.String()
	} else if !hostName.MatchString(host) || looksNumeric(host) {
		return nil, refuse(ReasonInvalid, "notify.err.not_host", words.Text("Host", host))
	}
	entry, ok := p.entry(host)
	if !ok {
		if names := p.namesList(); names != "" {
			return nil, refuse(ReasonHost, "notify.err.host", words.Text("Host", host), words.Text("Hosts", names))
		}
		return nil, refuse(ReasonHost, "notify.err.host_unnamed", words.Text("Host", host))
	}
	if u.Scheme == "http" && !entry.HTTP {
		return nil, refuse(ReasonInvalid, "notify.err.https_only", words.Text("Host", host))
	}
	def := "443"
	if u.Scheme == "http" {
		def = "80"
	}
	if port == "" {
		port = def
	}
	if want := cmp(entry.Port, def); port != want {
		return nil, refuse(ReasonHost, "notify.err.port", words.Text("Host", host), words.Text("Port", want))
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// entry is the listed entry for host (a name, or an address in its
// canonical form).
func (p Policy) entry(host string) (Allowed, bool) {
	for _, a := range p.Hosts {
		if a.Host == host {
			return a, true
		}
	}
	return Allowed{}, false
}

func (p Policy) listedAddr(ip netip.Addr) bool {
	return slices.ContainsFunc(p.Hosts, func(a Allowed) bool { return a.addr == ip })
}

// namesList is the listed host names a player may be told of: names only,
// never an address (an operator's own receiver on its network is not for
// every player to learn); "" when only addresses are listed.
func (p Policy) namesList() string {
	var names []string
	for _, a := range p.Hosts {
		if !a.IsAddr() && !slices.Contains(names, a.Host) {
			names = append(names, a.Host)
		}
	}
	return strings.Join(names, ", ")
}

// Dialable reports whether an address a listed host resolved to may be
// connected to: a public address, or one the operator listed as such.
func (p Policy) Dialable(ip netip.Addr) error {
	ip = ip.Unmap()
	if class := Classify(ip); class != "" && !p.listedAddr(ip) {
		return refuse(ReasonAddress, "notify.err.resolved."+string(class), words.Text("Host", ip.String()))
	}
	return nil
}

// ErrNotAddress: the dialler was given something that is not an IP
// address and port (it always is, after resolving).
var ErrNotAddress = errors.New("notify: dialling a host that is not an address")
