package access

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/words"
)

// Invites.
//
// An admin makes an invite (CreateInvite) and hands its code to a friend,
// who logs in once as `ssh invite-CODE@host` with a key of their own: that
// key is admitted for good (persisted), and the invite has one use fewer.
// The code is a secret: the stores keep a hash of it, logs and listings
// name the invite by its ID, and a wrong code counts as a guess against
// the address like a wrong guest reclaim code.
//
// InviteCodeLen characters of codes.Alphabet are about 64 bits: at the
// guess rate sshserver.Guesses allows (one every five minutes per address
// once an address has guessed wrong a few times) no one finds a live code.
const InviteCodeLen = 13

// Limits of invites: a typing slip (uses 1000, 10 years) is refused rather
// than leaving a door open for good; a stolen admin key cannot fill the
// store with invites.
const (
	MaxInviteUses   = 100
	MaxInviteTTL    = 90 * 24 * time.Hour
	DefaultTTL      = 7 * 24 * time.Hour
	MaxOpenInvites  = 1000
	inviteIDLen     = 8 // hex characters of the code's hash: the public name
	inviteCreateTry = 5 // fresh codes tried when an ID is taken
)

// Errors of the invite API; each is a *words.Error the admin reads in their
// language (errors.Is compares them).
var (
	ErrNoInvites   = words.NewError("access.err.no_invites")   // the server has no store for them
	ErrInviteUses  = words.NewError("access.err.uses")         // uses outside 1..MaxInviteUses
	ErrInviteTTL   = words.NewError("access.err.ttl")          // ttl beyond MaxInviteTTL
	ErrTooMany     = words.NewError("access.err.too_many")     // MaxOpenInvites live invites
	ErrNoSuchCode  = words.NewError("access.err.no_such")      // Revoke: no invite of that ID
	ErrInviteSpent = words.NewError("access.err.invite_spent") // Redeem: used up, expired or unknown
)

// Invite is an invite as an admin sees it: never its code.
type Invite struct {
	ID      string    // the public name to revoke it by
	By      string    // the admin who made it
	Uses    int       // keys it may admit in all
	Used    int       // keys it admitted
	Created time.Time //
	Expires time.Time // zero: never
	Keys    []string  // fingerprints it admitted
}

// Live reports whether the invite may still admit a key at now.
func (inv Invite) Live(now time.Time) bool {
	return inv.Used < inv.Uses && (inv.Expires.IsZero() || now.Before(inv.Expires))
}

// NormalizeCode is a typed invite code in canonical form, and whether it
// is one in form (see codes.Normalize).
func NormalizeCode(s string) (string, bool) {
	c := codes.Normalize(s)
	return c, codes.Valid(c, InviteCodeLen)
}

// FormatCode is a code as its owner types it: "7KQM-X4TR-9PZC-A".
func FormatCode(code string) string {
	if len(code) != InviteCodeLen {
		return code
	}
	return code[0:4] + "-" + code[4:8] + "-" + code[8:12] + "-" + code[12:]
}

// hashOf is the stored form of a code; idOf its public name.
func hashOf(code string) string {
	sum := sha256.Sum256([]byte("bivouac invite\x00" + code))
	return hex.EncodeToString(sum[:])
}

func idOf(code string) string { return hashOf(code)[:inviteIDLen] }

// TagOf is the public name of the invite of code: its ID, which listings
// and logs show (never the code).
func TagOf(code string) string { return idOf(code) }

// CreateInvite makes an invite by the admin of fingerprint by, good for
// uses keys (0: one) for ttl (0: DefaultTTL), and returns its code in
// canonical form: show it to that admin only, never log it.
func (p *Policy) CreateInvite(by string, uses int, ttl time.Duration) (string, error) {
	if p.store == nil {
		return "", ErrNoInvites
	}
	if uses == 0 {
		uses = 1
	}
	if ttl == 0 {
		ttl = DefaultTTL
	}
	if uses < 1 || uses > MaxInviteUses {
		return "", words.Refuse(ErrInviteUses, words.M("access.err.uses", words.Num("Max", MaxInviteUses)))
	}
	if ttl < 0 || ttl > MaxInviteTTL {
		return "", words.Refuse(ErrInviteTTL, words.M("access.err.ttl", words.Count(int(MaxInviteTTL/(24*time.Hour)))))
	}
	now := p.clock.Now().UTC()
	live, err := p.Invites()
	if err != nil {
		return "", err
	}
	n := 0
	for _, inv := range live {
		if inv.Live(now) {
			n++
		}
	}
	if n >= MaxOpenInvites {
		return "", words.Refuse(ErrTooMany, words.M("access.err.too_many", words.Num("Max", MaxOpenInvites)))
	}
	for range inviteCreateTry {
		code := codes.New(InviteCodeLen)
		rec := persistence.Invite{ID: idOf(code), Hash: hashOf(code), By: by, Uses: uses,
			Created: now, Expires: now.Add(ttl)}
		err = p.store.CreateInvite(rec)
		if errors.Is(err, persistence.ErrExists) {
			continue // another code's hash starts alike: draw again
		}
		if err != nil {
			return "", err
		}
		p.log.Info("invite created", "invite", rec.ID, "by", by, "uses", uses, "expires", rec.Expires)
		return code, nil
	}
	return "", err
}

// Invites lists the invites, oldest first, live or not.
func (p *Policy) Invites() ([]Invite, error) {
	if p.store == nil {
		return nil, nil
	}
	all, err := p.store.Invites()
	if err != nil {
		return nil, err
	}
	out := make([]Invite, len(all))
	for i, r := range all {
		out[i] = Invite{ID: r.ID, By: r.By, Uses: r.Uses, Used: r.Used, Created: r.Created, Expires: r.Expires,
			Keys: slices.Clone(r.Keys)}
	}
	return out, nil
}

// Revoke deletes the invite of that ID: its code admits no one any more.
// The keys it admitted stay admitted.
func (p *Policy) Revoke(id string) error {
	if p.store == nil {
		return ErrNoInvites
	}
	err := p.store.DeleteInvite(id)
	p.invites.Forget(id)
	if errors.Is(err, persistence.ErrNotFound) || errors.Is(err, persistence.ErrInvalid) {
		return words.Refuse(ErrNoSuchCode, words.M("access.err.no_such", words.Text("ID", id)))
	}
	if err == nil {
		p.log.Info("invite revoked", "invite", id)
	}
	return err
}

// liveInvite reports whether code is the code of an invite that may still
// admit a key. It changes nothing.
func (p *Policy) liveInvite(code string) (bool, error) {
	if p.store == nil {
		return false, nil
	}
	rec, _, err := p.invites.Read(idOf(code), notFound, func() (persistence.Invite, error) {
		return p.store.Invite(idOf(code))
	})
	if errors.Is(err, persistence.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return sameHash(rec.Hash, hashOf(code)) && asInvite(rec).Live(p.clock.Now()) && p.IsAdmin(rec.By), nil
}

func asInvite(r persistence.Invite) Invite {
	return Invite{ID: r.ID, By: r.By, Uses: r.Uses, Used: r.Used, Created: r.Created, Expires: r.Expires, Keys: r.Keys}
}

func sameHash(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// Redeem spends one use of the invite of code on the key of fingerprint
// fp and admits that key for good. Call it only once the client proved it
// holds the key. A used-up, expired or unknown code is ErrInviteSpent, and
// nothing changes. A key the invite already admitted costs no second use.
func (p *Policy) Redeem(fp, code string) error {
	if p.store == nil {
		return ErrInviteSpent
	}
	now := p.clock.Now()
	id, hash := idOf(code), hashOf(code)
	again := false
	rec, err := p.store.UpdateInvite(id, func(r *persistence.Invite) error {
		again = slices.Contains(r.Keys, fp)
		if !sameHash(r.Hash, hash) || (!again && !asInvite(*r).Live(now)) || !p.IsAdmin(r.By) {
			return ErrInviteSpent // an invite from a key no longer an admin's admits nobody
		}
		if !again {
			r.Used++
			r.Keys = append(r.Keys, fp)
		}
		return nil
	})
	if errors.Is(err, persistence.ErrNotFound) {
		return ErrInviteSpent
	}
	if err != nil {
		return err
	}
	if err := p.store.AdmitKey(persistence.AdmittedKey{Fingerprint: fp, Invite: id, By: rec.By, At: now.UTC()}); err != nil {
		return err
	}
	p.admitted.Put(fp, true)
	p.invites.Put(id, rec)
	if !again {
		p.log.Info("invite used: key admitted", "invite", id, "key", fp, "uses_left", rec.Uses-rec.Used)
	}
	return nil
}

// AdmittedKey is the record of a key an invite admitted, or ErrNotFound.
func (p *Policy) AdmittedKey(fp string) (persistence.AdmittedKey, error) {
	if p.store == nil {
		return persistence.AdmittedKey{}, persistence.ErrNotFound
	}
	return p.store.AdmittedKey(fp)
}

// Admitted lists the keys invites admitted, in fingerprint order.
func (p *Policy) Admitted() ([]persistence.AdmittedKey, error) {
	if p.store == nil {
		return nil, nil
	}
	return p.store.AdmittedKeys()
}

// Forget takes back the admission of a key an invite let in: with an
// allowlist it is refused from its next login. Keys in the files are the
// operator's to remove there.
func (p *Policy) Forget(fp string) error {
	if p.store == nil {
		return ErrNoInvites
	}
	err := p.store.ForgetKey(fp)
	if err == nil || errors.Is(err, persistence.ErrNotFound) {
		p.admitted.Put(fp, false)
	}
	if err == nil {
		p.log.Info("admitted key forgotten", "key", fp)
	}
	return err
}
