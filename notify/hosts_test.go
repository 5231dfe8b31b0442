package notify

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]Class{
		"93.184.215.14":          ClassPublic,
		"2606:4700::6810:84e5":   ClassPublic,
		"127.0.0.1":              ClassLoopback,
		"127.5.6.7":              ClassLoopback,
		"::1":                    ClassLoopback,
		"::ffff:127.0.0.1":       ClassLoopback, // IPv4-mapped
		"10.0.0.1":               ClassPrivate,
		"172.16.3.4":             ClassPrivate,
		"192.168.1.1":            ClassPrivate,
		"::ffff:10.0.0.1":        ClassPrivate,
		"fd12:3456::1":           ClassPrivate,
		"fec0::1":                ClassPrivate,
		"169.254.169.254":        ClassMetadata,
		"::ffff:169.254.169.254": ClassMetadata,
		"fd00:ec2::254":          ClassMetadata,
		"100.100.100.200":        ClassMetadata,
		"169.254.10.1":           ClassLinkLocal,
		"fe80::1":                ClassLinkLocal,
		"224.0.0.1":              ClassMulticast,
		"255.255.255.255":        ClassMulticast,
		"ff02::1":                ClassMulticast,
		"100.64.0.1":             ClassShared,
		"0.0.0.0":                ClassUnspecified,
		"0.1.2.3":                ClassUnspecified,
		"::":                     ClassUnspecified,
		"192.0.2.1":              ClassReserved,
		"198.18.0.1":             ClassReserved,
		"240.0.0.1":              ClassReserved,
		"2001:db8::1":            ClassReserved,
		"::127.0.0.1":            ClassReserved, // IPv4-compatible
		"2001:0:4136:e378::1":    ClassReserved, // Teredo
		"64:ff9b::a00:1":         ClassPrivate,  // NAT64 of 10.0.0.1
		"64:ff9b::a9fe:a9fe":     ClassMetadata, // NAT64 of 169.254.169.254
		"64:ff9b::5db8:d70e":     ClassPublic,
		"2002:7f00:1::1":         ClassLoopback, // 6to4 of 127.0.0.1
		"2002:5db8:d70e::1":      ClassPublic,
	} {
		if got := Classify(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Classify(%s) = %q, want %q", addr, got, want)
		}
	}
}

func TestParseHosts(t *testing.T) {
	t.Parallel()
	got, err := ParseHosts("ntfy.sh, discord.com  https://hooks.slack.com,http://127.0.0.1:8088,ntfy.example.org:8443,[::1]:9,NTFY.SH")
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, a := range got {
		s = append(s, a.String())
	}
	if want := "ntfy.sh discord.com hooks.slack.com http://127.0.0.1:8088 ntfy.example.org:8443 [::1]:9"; strings.Join(s, " ") != want {
		t.Errorf("ParseHosts = %q, want %q", strings.Join(s, " "), want)
	}
	for _, bad := range []string{"ftp://x.org", "ntfy.sh/topic", "user@ntfy.sh", "*.ntfy.sh", "x.org:0", "x.org:99999", "127.1", "0x7f.1", "2130706433", "ex!ample", "bad_host.org", "[fe80::1%eth0]"} {
		if _, err := ParseHosts(bad); err == nil {
			t.Errorf("ParseHosts(%q) took it", bad)
		}
	}
	if _, err := ParseHosts(strings.Repeat("a.org,", MaxHosts) + "b.org"); err != nil {
		t.Errorf("duplicates count once: %v", err)
	}
}

func policy(t *testing.T, hosts string) Policy {
	t.Helper()
	h, err := ParseHosts(hosts)
	if err != nil {
		t.Fatal(err)
	}
	return Policy{On: true, Hosts: h}
}

// Every URL the issue names is refused with its own reason and words
// that name the host; listed hosts are taken.
func TestCheck(t *testing.T) {
	t.Parallel()
	p := policy(t, "ntfy.sh,discord.com,ntfy.example.org:8443,http://127.0.0.1:8088,http://receiver.lan")
	for _, ok := range []string{
		"https://ntfy.sh/bivouac-anna-7f3k",
		"https://NTFY.sh./x",
		"https://ntfy.sh:443/x",
		"https://discord.com/api/webhooks/1/abc?wait=true",
		"https://ntfy.example.org:8443/t",
		"http://127.0.0.1:8088/hook",
		"http://receiver.lan/hook",
		"https://receiver.lan/hook",
		"https://user:pass@ntfy.sh/private",
	} {
		if _, err := p.Check(ok); err != nil {
			t.Errorf("Check(%q): %v", ok, err)
		}
	}
	for raw, want := range map[string]string{
		"https://169.254.169.254/latest/meta-data":       "notify.err.address.metadata",
		"http://169.254.169.254/":                        "notify.err.address.metadata",
		"https://10.0.0.1/hook":                          "notify.err.address.private",
		"https://[::1]/hook":                             "notify.err.address.loopback",
		"https://[::ffff:10.0.0.1]/":                     "notify.err.address.private",
		"https://[fe80::1]/":                             "notify.err.address.link_local",
		"https://100.64.1.1/":                            "notify.err.address.shared",
		"https://224.0.0.1/":                             "notify.err.address.multicast",
		"https://0.0.0.0/":                               "notify.err.address.unspecified",
		"https://evil.example.com/x":                     "notify.err.host",
		"https://8.8.8.8/x":                              "notify.err.host",
		"http://ntfy.sh/x":                               "notify.err.https_only",
		"https://ntfy.sh:8443/x":                         "notify.err.port",
		"https://ntfy.example.org/t":                     "notify.err.port",
		"http://127.0.0.1:9999/hook":                     "notify.err.port",
		"http://127.0.0.1/hook":                          "notify.err.port",
		"https://2130706433/":                            "notify.err.not_host",
		"https://0x7f.1/":                                "notify.err.not_host",
		"https://127.1/":                                 "notify.err.not_host",
		"ftp://ntfy.sh/x":                                "notify.err.scheme",
		"javascript:alert(1)":                            "notify.err.not_url",
		"ntfy.sh/x":                                      "notify.err.not_url",
		"https://ntfy.sh/x#frag":                         "notify.err.fragment",
		"https://ntfy.sh/" + strings.Repeat("a", MaxURL): "notify.err.too_long",
	} {
		_, err := p.Check(raw)
		var ref *Refusal
		if !errors.As(err, &ref) {
			t.Errorf("Check(%q) = %v, want a refusal", raw, err)
			continue
		}
		if ref.Msg.Key != want {
			t.Errorf("Check(%q) says %s, want %s", raw, ref.Msg.Key, want)
		}
	}
	// An address listed on its own is allowed, and only that one.
	p2 := policy(t, "http://10.0.0.1")
	if _, err := p2.Check("http://10.0.0.1/hook"); err != nil {
		t.Errorf("a listed private address: %v", err)
	}
	if _, err := p2.Check("http://10.0.0.2/hook"); err == nil {
		t.Error("an unlisted private address was taken")
	}
	// Notifications off: nothing is taken.
	if _, err := (Policy{Hosts: p.Hosts}).Check("https://ntfy.sh/x"); err == nil {
		t.Error("a URL was taken with notifications off")
	}
}

// The refusal that lists the allowed hosts names host names only, never
// an address the operator listed for their own receiver.
func TestRefusalListsNamesOnly(t *testing.T) {
	t.Parallel()
	p := policy(t, "ntfy.sh,http://127.0.0.1:8088,http://10.1.2.3")
	_, err := p.Check("https://evil.example.com/")
	var ref *Refusal
	if !errors.As(err, &ref) {
		t.Fatal(err)
	}
	if got := ref.Msg.String(); !strings.Contains(got, "ntfy.sh") || strings.Contains(got, "127.0.0.1") || strings.Contains(got, "10.1.2.3") {
		t.Errorf("refusal %q", got)
	}
}

// With only addresses listed, the refusal names no host at all rather
// than an empty list.
func TestRefusalWithOnlyAddressesListedNamesNone(t *testing.T) {
	t.Parallel()
	p := policy(t, "http://127.0.0.1:8088,http://10.1.2.3")
	_, err := p.Check("https://example.com/x")
	var ref *Refusal
	if !errors.As(err, &ref) {
		t.Fatal(err)
	}
	if ref.Msg.Key != "notify.err.host_unnamed" || ref.Msg.String() != "notify.err.host_unnamed(Host=example.com)" {
		t.Errorf("refusal %s: %q", ref.Msg.Key, ref.Msg.String())
	}
}
