package moderation

import (
	"net/netip"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/words"
)

// Bans hold an identity and, for a while, an address.
//
// A player's ban holds their identity (a key, or a guest's ID) for its
// whole length. It also holds the address they came from last (an IPv4
// address, or the /64 of an IPv6 one, which a host's privacy addresses
// share) for at most MaxAddressHold: addresses are shared (a household, a
// school, a carrier's NAT) and change hands. The address part keeps out
// guests (a new reclaim code is a new identity at will) and keys the
// server first saw after the ban (a new key is one ssh-keygen away); keys
// seen before the ban come in, so the banned player's housemates still
// play, and so do keys an admin let in by name since (the allowlist, an
// invite). BanOptions.KeyOnly leaves the address out.
//
// An address ban (BanAddress) holds an address or a range, whoever comes
// from it but admins, for as long as the admin says.
//
// What no ban stops: a new key from a new address. An operator facing
// that closes the door instead (--allow with invites, --no-guests,
// --new-keys-per-ip).

// MaxAddressHold is the longest a player's ban holds their address.
const MaxAddressHold = 24 * time.Hour

// MaxAddressBans is how many address bans may be in force at once: each
// is checked at every login.
const MaxAddressBans = 1000

// The widest ranges an address ban may cover: an IPv4 /16 (65,536
// addresses) or an IPv6 /32 (an ISP's allocation).
const (
	MinBitsIPv4 = 16
	MinBitsIPv6 = 32
)

// Errors of bans an admin reads.
var (
	ErrTooManyAddressBans = words.NewError("moderation.bans.too_many_addresses")
	ErrAddressTooWide     = words.NewError("moderation.bans.too_wide")
	ErrNotAnAddress       = words.NewError("moderation.bans.not_address")
)

// BanOptions are how far a player's ban reaches.
type BanOptions struct {
	// KeyOnly: the ban holds the identity only, not its address (a
	// shared address, such as a school's).
	KeyOnly bool
}

// Ban keeps who out for d (Forever: for good): their identity, and unless
// o.KeyOnly their last known address (who.Addr, else the last one seen)
// for at most MaxAddressHold. Admins cannot be banned.
func (s *Service) Ban(by, who Person, d time.Duration, reason string, o BanOptions) (Sanction, error) {
	sn := Sanction{Kind: Ban}
	if !o.KeyOnly {
		addr := who.Addr
		if addr == "" {
			addr = s.lastAddr(who.ID)
		}
		if p, ok := AddressGroup(addr); ok {
			now := s.clock.Now().UTC()
			sn.Addr, sn.AddrUntil = p.String(), now.Add(MaxAddressHold)
			if d > 0 && d < MaxAddressHold {
				sn.AddrUntil = now.Add(d)
			}
		}
	}
	return s.sanction(sn, by, who, d, reason)
}

// BanAddress keeps everyone but admins out of the addresses of prefix for
// d (Forever: for good).
func (s *Service) BanAddress(by Person, prefix netip.Prefix, d time.Duration, reason string) (Sanction, error) {
	prefix = prefix.Masked()
	if bits := prefix.Bits(); prefix.Addr().Is4() && bits < MinBitsIPv4 || !prefix.Addr().Is4() && bits < MinBitsIPv6 {
		return Sanction{}, words.Refuse(ErrAddressTooWide, words.M("moderation.bans.too_wide",
			words.Num("V4", MinBitsIPv4), words.Num("V6", MinBitsIPv6)))
	}
	all, err := s.InForce()
	if err != nil {
		return Sanction{}, err
	}
	n := 0
	for _, sn := range all {
		if IsAddressBan(sn) && sn.Subject != persistence.AddressSubject+prefix.String() {
			n++
		}
	}
	if n >= MaxAddressBans {
		return Sanction{}, words.Refuse(ErrTooManyAddressBans, words.M("moderation.bans.too_many_addresses", words.Num("Max", MaxAddressBans)))
	}
	sn := Sanction{Kind: Ban, Addr: prefix.String()}
	who := Person{ID: persistence.AddressSubject + prefix.String(), Name: ShowPrefix(prefix)}
	sn, err = s.sanction(sn, by, who, d, reason)
	return sn, err
}

// IsAddressBan reports whether sn is the ban of an address (BanAddress),
// not of a player.
func IsAddressBan(sn Sanction) bool { return strings.HasPrefix(sn.Subject, persistence.AddressSubject) }

// ParseAddress reads an address or a range an admin writes:
// "203.0.113.7", "2001:db8::1", "203.0.113.0/24", "2001:db8::/48".
func ParseAddress(word string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(word); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(word)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, words.Refuse(ErrNotAnAddress, words.M("moderation.bans.not_address", words.Text("Word", shown(word))))
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// LooksLikeAddress reports whether an admin's word is meant as an
// address rather than a name: it parses as one, or as a range.
func LooksLikeAddress(word string) bool {
	_, err := ParseAddress(word)
	return err == nil
}

// AddressGroup is the prefix a ban holds for one address: the IPv4
// address itself, or the /64 of an IPv6 one. false for no address.
func AddressGroup(addr string) (netip.Prefix, bool) {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return netip.Prefix{}, false
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return netip.PrefixFrom(a, 32), true
	}
	p, _ := a.Prefix(64)
	return p, true
}

// ShowPrefix is a prefix as admins read it: a single IPv4 address
// without its /32.
func ShowPrefix(p netip.Prefix) string {
	if p.IsSingleIP() {
		return p.Addr().String()
	}
	return p.String()
}

// ShowAddr is a stored address part as admins read it.
func ShowAddr(s string) string {
	if p, ok := addrPrefix(s); ok {
		return ShowPrefix(p)
	}
	return sanitize.Line(s, 64)
}

// addrPrefix reads a sanction's Addr: a prefix, or (older records) one
// address.
func addrPrefix(s string) (netip.Prefix, bool) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p, true
	}
	if a, err := netip.ParseAddr(s); err == nil {
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	return netip.Prefix{}, false
}

// AddrInForceAt reports whether the ban's address part holds at t.
func AddrInForceAt(sn Sanction, t time.Time) bool {
	if sn.Addr == "" || !sn.InForceAt(t) {
		return false
	}
	return sn.AddrUntil.IsZero() || t.Before(sn.AddrUntil)
}

// Visitor is someone at the door, or a session: who, and from where.
type Visitor struct {
	ID    string
	Guest bool
	Addr  string // the client's IP address
}

// Refused is the ban that keeps v out, if one does: a ban of v's
// identity; a ban of v's address; or a player's ban holding v's address,
// for a guest or for a key the server first saw after that ban and no
// admin vouched for (Options.Vouched). Admins are never refused.
func (s *Service) Refused(v Visitor) (Sanction, bool) {
	if s.IsAdmin(v.ID) {
		return Sanction{}, false
	}
	all, _ := s.current(s.life) // a store that cannot be read lets people in: the view it had stays
	now := s.clock.Now()
	var addr netip.Addr
	var byAddr []Sanction
	for _, sn := range all {
		if sn.Kind != Ban || !sn.InForceAt(now) {
			continue
		}
		if sn.Subject == v.ID {
			return sn, true
		}
		if !AddrInForceAt(sn, now) {
			continue
		}
		if !addr.IsValid() {
			a, err := netip.ParseAddr(v.Addr)
			if err != nil {
				continue
			}
			addr = a.Unmap().WithZone("")
		}
		if p, ok := addrPrefix(sn.Addr); ok && p.Contains(addr) {
			if IsAddressBan(sn) || v.Guest {
				return sn, true
			}
			byAddr = append(byAddr, sn) // a key: only if new since the ban
		}
	}
	for _, sn := range byAddr {
		if !s.seenBefore(v.ID, sn.At) && (s.vouched == nil || !s.vouched(v.ID)) {
			return sn, true
		}
	}
	return Sanction{}, false
}

// Ends reports whether a ban ends a session of v that is open now: one of
// v's identity, or from an address it holds for guests (a guest's) or
// for everyone (an address ban). Keys at a banned player's address
// connected before the ban, so they are no new keys: their sessions go on.
func Ends(sn Sanction, v Visitor, now time.Time) bool {
	if sn.Kind != Ban || !sn.InForceAt(now) {
		return false
	}
	if sn.Subject == v.ID {
		return true
	}
	if !AddrInForceAt(sn, now) || !(v.Guest || IsAddressBan(sn)) {
		return false
	}
	p, ok := addrPrefix(sn.Addr)
	a, err := netip.ParseAddr(v.Addr)
	return ok && err == nil && p.Contains(a.Unmap().WithZone(""))
}

// Banned returns the ban in force on an identity (not its address).
func (s *Service) Banned(id string) (Sanction, bool) {
	return s.find(func(sn Sanction) bool { return sn.Kind == Ban && sn.Subject == id })
}
