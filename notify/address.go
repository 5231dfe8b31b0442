package notify

import "net/netip"

// Class is why an address is refused unless the operator lists it: ""
// for a public address.
type Class string

const (
	ClassPublic      Class = ""
	ClassLoopback    Class = "loopback"
	ClassPrivate     Class = "private"     // RFC 1918, unique local IPv6, site-local
	ClassLinkLocal   Class = "link_local"  // 169.254/16, fe80::/10
	ClassMetadata    Class = "metadata"    // the clouds' instance metadata services
	ClassMulticast   Class = "multicast"   // and broadcast
	ClassShared      Class = "shared"      // carrier-grade NAT, 100.64/10
	ClassUnspecified Class = "unspecified" // 0.0.0.0, ::, 0/8
	ClassReserved    Class = "reserved"    // documentation, benchmarking, future use, translation forms
)

// metadataAddrs are the cloud providers' instance metadata services:
// AWS, GCP, Azure, OpenStack, DigitalOcean and Oracle answer at
// 169.254.169.254; AWS on IPv6 at fd00:ec2::254; Alibaba at
// 100.100.100.200. A request there can hand out the machine's
// credentials, the classic prize of server-side request forgery.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
}

var (
	shared4   = netip.MustParsePrefix("100.64.0.0/10")
	thisNet4  = netip.MustParsePrefix("0.0.0.0/8")
	broadcast = netip.MustParseAddr("255.255.255.255")
	reserved4 = []netip.Prefix{
		netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
		netip.MustParsePrefix("192.0.2.0/24"),    // documentation
		netip.MustParsePrefix("198.51.100.0/24"), // documentation
		netip.MustParsePrefix("203.0.113.0/24"),  // documentation
		netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
		netip.MustParsePrefix("240.0.0.0/4"),     // future use
	}
	siteLocal6 = netip.MustParsePrefix("fec0::/10")
	// IPv6 forms that carry an IPv4 address: the embedded one decides.
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	nat64L = netip.MustParsePrefix("64:ff9b:1::/48")
	sixTo4 = netip.MustParsePrefix("2002::/16")
	// IPv6 that never reaches a public host: documentation, discard,
	// ORCHID, Teredo (whose server and client addresses hide IPv4 ones),
	// the old IPv4-compatible form.
	reserved6 = []netip.Prefix{
		netip.MustParsePrefix("2001:db8::/32"),
		netip.MustParsePrefix("100::/64"),
		netip.MustParsePrefix("2001:10::/28"),
		netip.MustParsePrefix("2001:20::/28"),
		netip.MustParsePrefix("2001::/32"),
		netip.MustParsePrefix("::/96"),
		netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated
	}
)

// Classify says what kind of address ip is, for the refusals: public
// (""), or why it is refused unless listed. IPv4-mapped IPv6 addresses
// are their IPv4 address, and IPv6 forms that embed an IPv4 address
// (NAT64, 6to4) are classed by it.
func Classify(ip netip.Addr) Class {
	ip = ip.WithZone("").Unmap()
	for _, m := range metadataAddrs {
		if ip == m {
			return ClassMetadata
		}
	}
	if ip.Is4() {
		return classify4(ip)
	}
	switch {
	case ip.IsUnspecified():
		return ClassUnspecified
	case ip.IsLoopback():
		return ClassLoopback
	case ip.IsMulticast():
		return ClassMulticast
	case ip.IsLinkLocalUnicast():
		return ClassLinkLocal
	case ip.IsPrivate(), siteLocal6.Contains(ip):
		return ClassPrivate
	case nat64.Contains(ip), nat64L.Contains(ip):
		b := ip.As16()
		if c := Classify(netip.AddrFrom4([4]byte(b[12:16]))); c != ClassPublic {
			return c
		}
		return ClassPublic
	case sixTo4.Contains(ip):
		b := ip.As16()
		if c := Classify(netip.AddrFrom4([4]byte(b[2:6]))); c != ClassPublic {
			return c
		}
		return ClassPublic
	}
	for _, p := range reserved6 {
		if p.Contains(ip) {
			return ClassReserved
		}
	}
	if !ip.IsGlobalUnicast() {
		return ClassReserved
	}
	return ClassPublic
}

func classify4(ip netip.Addr) Class {
	switch {
	case ip.IsUnspecified(), thisNet4.Contains(ip):
		return ClassUnspecified
	case ip.IsLoopback():
		return ClassLoopback
	case ip.IsMulticast(), ip == broadcast:
		return ClassMulticast
	case ip.IsLinkLocalUnicast():
		return ClassLinkLocal
	case ip.IsPrivate():
		return ClassPrivate
	case shared4.Contains(ip):
		return ClassShared
	}
	for _, p := range reserved4 {
		if p.Contains(ip) {
			return ClassReserved
		}
	}
	return ClassPublic
}
