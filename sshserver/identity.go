package sshserver

import (
	"context"
	"crypto/rand"
	"errors"
	"maps"
	"net"
	"strings"

	"bivouac/sanitize"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Identity is who a session belongs to, as the server verified it.
type Identity struct {
	// ID is the player: the SHA256 fingerprint of the key the client proved
	// it holds ("SHA256:…"), or "guest:CODE" for a keyless guest.
	ID string
	// Guest is true for keyless players; nothing is stored for them.
	Guest bool
	// Code is a guest's reclaim code (6 characters of CodeAlphabet): logging
	// in again as `ssh -p 2222 CODE@host` without a key is the same guest.
	// Empty for key holders.
	Code string
	// User is the SSH user name cleaned with sanitize.Line (safe to print),
	// the default display name. For a guest reclaiming a seat it is the code.
	// Run it through sanitize.Name before using it as a display name.
	User string
	// RemoteIP is the client's IP address, without port.
	RemoteIP string
}

type identityKey struct{}

// IdentityFrom returns the identity the identity middleware stored in a
// session's context (s.Context(), or a context derived from it).
func IdentityFrom(ctx context.Context) (Identity, bool) {
	if ctx == nil {
		return Identity{}, false
	}
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// IdentityOf is IdentityFrom(s.Context()).
func IdentityOf(s ssh.Session) (Identity, bool) { return IdentityFrom(s.Context()) }

// Permission extensions written during authentication. The client cannot set
// these: they live in the server's Permissions, reset on every auth attempt.
const (
	extOffered  = "bivouac-offered-fp"  // PublicKeyHandler: the key the client offered
	extVerified = "bivouac-verified-fp" // VerifiedPublicKeyCallback: its signature checked
	extGuest    = "bivouac-guest-code"  // keyboard-interactive guest login
)

// acceptAnyKey is the PublicKeyHandler: every key is welcome, and the one
// offered is recorded. A client may offer keys it cannot sign for, so this
// record alone proves nothing; see verifiedKey and identify.
func acceptAnyKey(ctx ssh.Context, key ssh.PublicKey) bool {
	setExt(ctx.Permissions(), extOffered, gossh.FingerprintSHA256(key))
	return true
}

// verifiedKey is the x/crypto VerifiedPublicKeyCallback: it runs only after
// the client's signature with key has been checked, with the Permissions
// returned when that same key was offered. It records the fingerprint as
// verified, and refuses if the offer record names another key.
func verifiedKey(_ gossh.ConnMetadata, key gossh.PublicKey, perms *gossh.Permissions, _ string) (*gossh.Permissions, error) {
	fp := gossh.FingerprintSHA256(key)
	if perms == nil || perms.Extensions[extOffered] != fp {
		return nil, errKeyMismatch
	}
	out := &gossh.Permissions{
		CriticalOptions: maps.Clone(perms.CriticalOptions),
		Extensions:      maps.Clone(perms.Extensions),
	}
	out.Extensions[extVerified] = fp
	return out, nil
}

var errKeyMismatch = errors.New("sshserver: verified key differs from the offered one")

// guestLogin is the keyboard-interactive handler when guests are allowed: no
// prompts. A user name in reclaim-code form is that guest again; any other
// name gets a fresh code.
func guestLogin(ctx ssh.Context, _ gossh.KeyboardInteractiveChallenge) bool {
	code, ok := ParseCode(ctx.User())
	if !ok {
		var err error
		if code, err = NewCode(); err != nil {
			return false
		}
	}
	setExt(ctx.Permissions(), extGuest, code)
	return true
}

func setExt(p *ssh.Permissions, k, v string) {
	if p.Permissions == nil {
		p.Permissions = &gossh.Permissions{}
	}
	if p.Extensions == nil {
		p.Extensions = map[string]string{}
	}
	p.Extensions[k] = v
}

// identify works out the session's identity from what authentication
// recorded, re-checking the key: the fingerprint of the key the session
// carries must equal both the offered and the verified record (soft-serve's
// auth-bypass lesson: a client can offer one key and sign with another).
func identify(s ssh.Session, allowGuests bool) (Identity, error) {
	perms := s.Permissions()
	var ext map[string]string
	if perms.Permissions != nil {
		ext = perms.Extensions
	}
	id := Identity{
		User:     sanitize.Line(s.User(), 64),
		RemoteIP: remoteIP(s.RemoteAddr()),
	}
	if key := s.PublicKey(); key != nil {
		fp := gossh.FingerprintSHA256(key)
		if ext[extOffered] != fp || ext[extVerified] != fp || ext[extGuest] != "" {
			return Identity{}, errKeyMismatch
		}
		id.ID = fp
		return id, nil
	}
	if ext[extOffered] != "" || ext[extVerified] != "" {
		return Identity{}, errKeyMismatch // key records but no key: never trust them
	}
	code, ok := ParseCode(ext[extGuest])
	if !ok || !allowGuests {
		return Identity{}, errors.New("sshserver: no verified key and no guest login")
	}
	id.ID, id.Guest, id.Code = "guest:"+code, true, code
	return id, nil
}

// CodeAlphabet is the characters of a guest reclaim code: digits and capital
// letters without the look-alikes 0 O 1 I L and U.
const CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeLen is the length of a guest reclaim code.
const CodeLen = 6

// NewCode returns a random reclaim code from crypto/rand with at least one
// digit and one letter (so that ordinary user names such as "JASPER" are
// never taken for a code). About 2^29 codes: enough to make guessing a
// live seat's code over SSH impractical, not a secret to protect anything
// beyond one game.
func NewCode() (string, error) {
	var buf [CodeLen]byte
	for {
		if _, err := rand.Read(buf[:]); err != nil {
			return "", err
		}
		for i, b := range buf {
			// 256 % 30 != 0: reject the top values to keep every character equally likely.
			for b >= 240 {
				var one [1]byte
				if _, err := rand.Read(one[:]); err != nil {
					return "", err
				}
				b = one[0]
			}
			buf[i] = CodeAlphabet[int(b)%len(CodeAlphabet)]
		}
		if code, ok := ParseCode(string(buf[:])); ok {
			return code, nil
		}
	}
}

// ParseCode reports whether s (any case) is a reclaim code and returns it in
// canonical upper case.
func ParseCode(s string) (string, bool) {
	if len(s) != CodeLen {
		return "", false
	}
	s = strings.ToUpper(s)
	digit, letter := false, false
	for i := range len(s) {
		c := s[i]
		if strings.IndexByte(CodeAlphabet, c) < 0 {
			return "", false
		}
		if c >= '0' && c <= '9' {
			digit = true
		} else {
			letter = true
		}
	}
	return s, digit && letter
}

// remoteIP returns the host part of addr.
func remoteIP(addr net.Addr) string {
	if addr == nil {
		return ""
	}
	if ta, ok := addr.(*net.TCPAddr); ok {
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}
