package sshserver

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"net"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/sanitize"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Identity is who a session belongs to, as the server verified it.
type Identity struct {
	// ID is the player: the SHA256 fingerprint of the key the client proved
	// it holds ("SHA256:…"), or GuestID(code) for a keyless guest. Safe to
	// store and log.
	ID string
	// Guest is true for keyless players; nothing is stored for them.
	Guest bool
	// Code is a guest's reclaim code (canonical form, see ParseGuestCode):
	// logging in again as `ssh -p 2222 g-xxxx-xxxx-xxxx@host` without a key
	// is the same guest. A secret: show it to its owner only
	// (FormatGuestCode), never log it. Empty for key holders.
	Code string
	// User is the SSH user name cleaned with sanitize.Line (safe to print),
	// the default display name; empty when the user name may hold a secret
	// (SecretUser: a reclaim code, right or wrong, or an invite). Run it through sanitize.Name before using it as a display name.
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

// keyLogin is the connection's VerifiedPublicKeyCallback: verifiedKey, the
// invite the key came in by redeemed (see doorkeeper.go), then the
// connection is authenticated (which may still refuse it).
func (s *Server) keyLogin(ctx ssh.Context) func(gossh.ConnMetadata, gossh.PublicKey, *gossh.Permissions, string) (*gossh.Permissions, error) {
	return func(m gossh.ConnMetadata, key gossh.PublicKey, perms *gossh.Permissions, alg string) (*gossh.Permissions, error) {
		out, err := verifiedKey(m, key, perms, alg)
		if err != nil {
			return nil, err
		}
		if !s.redeem(ctx, gossh.FingerprintSHA256(key), out) {
			return nil, errNotAdmitted
		}
		if !s.authenticated(ctx) {
			return nil, errRefused
		}
		return out, nil
	}
}

var errRefused = errors.New("sshserver: connection refused")

// guestLogin is the keyboard-interactive handler when guests are allowed: no
// prompts. A user name in reclaim-code form is that guest again, if the
// code is one the server knows (handed out by this process, or seated at a
// table: Deps.KnownGuest); a wrong code counts as a guess against the
// address (Guesses) and waits out its delay before failing. Any other name
// gets a fresh code.
func (s *Server) guestLogin(ctx ssh.Context, _ gossh.KeyboardInteractiveChallenge) bool {
	code, reclaim := ParseGuestCode(ctx.User())
	if !reclaim && (LooksLikeGuestCode(ctx.User()) || s.HoldsCode(ctx.User())) {
		// A mistyped code is a failed reclaim, never a fresh guest whose
		// name would show most of the code to everyone.
		addr := ctx.RemoteAddr().String()
		wait := s.guesses.Wrong(addr)
		s.refused(RefusedGuesses)
		s.log.Info("unknown guest code", "remote", addr, "next_guess_in", wait, "refused", RefusedGuesses)
		sleepAtMost(ctx, wait)
		return false
	}
	if !reclaim {
		if !s.authenticated(ctx) {
			return false
		}
		code = NewGuestCode()
		s.issued.add(GuestID(code), time.Now())
		setExt(ctx.Permissions(), extGuest, code)
		return true
	}
	addr := ctx.RemoteAddr().String()
	if wait := s.guesses.Wait(addr); wait > 0 {
		s.refused(RefusedGuesses)
		s.log.Info("guest code refused: too many wrong codes", "remote", addr, "wait", wait.Round(time.Second),
			"refused", RefusedGuesses)
		sleepAtMost(ctx, wait)
		return false
	}
	id := GuestID(code)
	if !s.issued.has(id, time.Now()) && (s.deps.KnownGuest == nil || !s.deps.KnownGuest(id)) {
		wait := s.guesses.Wrong(addr)
		s.refused(RefusedGuesses)
		s.log.Info("unknown guest code", "remote", addr, "next_guess_in", wait, "refused", RefusedGuesses)
		sleepAtMost(ctx, wait)
		return false
	}
	if !s.authenticated(ctx) {
		return false
	}
	s.issued.add(id, time.Now())
	setExt(ctx.Permissions(), extGuest, code)
	return true
}

// maxAuthDelay bounds how long a refused guess holds its connection: long
// enough to slow a guesser down, short of the handshake timeout.
const maxAuthDelay = 5 * time.Second

// sleepAtMost waits d (at most maxAuthDelay) or until the connection ends.
func sleepAtMost(ctx context.Context, d time.Duration) {
	t := time.NewTimer(min(d, maxAuthDelay))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
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
//
// secret says whether a user name holds a secret (Server.secretUser): such
// a name is no player's name.
func identify(s ssh.Session, allowGuests bool, secret func(user string) string) (Identity, error) {
	perms := s.Permissions()
	var ext map[string]string
	if perms.Permissions != nil {
		ext = perms.Extensions
	}
	id := Identity{RemoteIP: remoteIP(s.RemoteAddr())}
	if secret(s.User()) == "" {
		id.User = sanitize.Line(s.User(), 64)
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
	code := ext[extGuest]
	if !codes.Valid(code, GuestCodeLen) || !allowGuests {
		return Identity{}, errors.New("sshserver: no verified key and no guest login")
	}
	id.ID, id.Guest, id.Code = GuestID(code), true, code
	return id, nil
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

// AuthorizedKey is the public key a session logged in with, as a line of
// an authorized_keys file ("ssh-ed25519 AAAA…"), or "" for a guest: what
// an admin's `allow add NAME` writes to the allowlist.
func AuthorizedKey(sess ssh.Session) string {
	id, ok := IdentityOf(sess)
	key := sess.PublicKey()
	if !ok || id.Guest || key == nil {
		return ""
	}
	return string(bytes.TrimSpace(gossh.MarshalAuthorizedKey(key)))
}
