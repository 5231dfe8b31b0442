package access

import (
	"errors"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/words"
)

// Entry is the decision on a client offering a key.
type Entry struct {
	// Refused is why the key may not come in (zero: it may). It names no
	// one and says nothing of who is on the lists.
	Refused words.Msg
	// ByInvite: the key comes in by the invite it named; call Redeem once
	// the client proved it holds the key.
	ByInvite bool
	// WrongCode: the invite code named is not a live invite's; it counts
	// as a guess against the address.
	WrongCode bool
}

// Messages of refusals at the door.
var (
	msgNotAllowed  = words.M("access.not_allowed")
	msgNoGuests    = words.M("access.no_guests")
	msgInviteBad   = words.M("access.invite_bad")
	msgNeedsKey    = words.M("access.invite_needs_key")
	msgUnavailable = words.M("access.unavailable")
)

// Restricted reports whether only listed keys may come in (--allow).
func (p *Policy) Restricted() bool { return p != nil && p.allow != nil }

// KeyEntry decides on a client offering the key of fingerprint fp, with
// the invite code its user name carried (canonical form; "" for none). It
// changes nothing: the client has not proved it holds the key yet.
//
// A key an admin, the allowlist or an earlier invite let in comes in
// whatever its user name. Otherwise a named invite decides; without one,
// any key comes in unless there is an allowlist.
func (p *Policy) KeyEntry(fp, code string) Entry {
	if code == "" && !p.Restricted() {
		return Entry{} // an open server: no need to look the key up
	}
	known, err := p.knownKey(fp)
	if err != nil {
		p.log.Error("cannot tell whether a key was admitted", "key", fp, "err", err)
		return Entry{Refused: msgUnavailable}
	}
	if known {
		return Entry{}
	}
	if code != "" {
		live, err := p.liveInvite(code)
		switch {
		case err != nil:
			p.log.Error("cannot read an invite", "invite", idOf(code), "err", err)
			return Entry{Refused: msgUnavailable}
		case !live:
			return Entry{Refused: msgInviteBad, WrongCode: true}
		}
		return Entry{ByInvite: true}
	}
	if p.Restricted() {
		return Entry{Refused: msgNotAllowed}
	}
	return Entry{}
}

// GuestEntry decides on a client without a key, whose user name carried
// the invite code code ("" for none): why it is refused, or zero. An
// invite needs a key; a wrong code is a guess (wrong true).
func (p *Policy) GuestEntry(code string) (refused words.Msg, wrong bool) {
	if code != "" {
		live, err := p.liveInvite(code)
		switch {
		case err != nil:
			p.log.Error("cannot read an invite", "invite", idOf(code), "err", err)
			return msgUnavailable, false
		case !live:
			return msgInviteBad, true
		}
		return msgNeedsKey, false
	}
	if p.Restricted() || p.cfg.NoGuests {
		return msgNoGuests, false
	}
	return words.Msg{}, false
}

// Admits reports whether a key may come in now: any key on a server
// without an allowlist, else an admin's, one on the allowlist or one an
// invite admitted. The server asks it of the keys in session when a list
// changes (a store it cannot read keeps them in).
func (p *Policy) Admits(fp string) bool {
	if !p.Restricted() {
		return true
	}
	known, err := p.knownKey(fp)
	return known || err != nil
}

// Vouched reports whether an admin let the key in by name: an admin's
// own, one on the allowlist, or one an invite admitted (a store that
// cannot be read vouches for nobody).
func (p *Policy) Vouched(fp string) bool {
	if p == nil {
		return false
	}
	known, err := p.knownKey(fp)
	return known && err == nil
}

// knownKey: an admin's key, one on the allowlist or one an invite admitted.
func (p *Policy) knownKey(fp string) (bool, error) {
	if p.IsAdmin(fp) || p.allow != nil && p.onList(ListAllow, p.allow, fp) {
		return true, nil
	}
	if p.store == nil {
		return false, nil
	}
	known, _, err := p.admitted.Read(fp, notFound, func() (bool, error) {
		_, err := p.store.AdmittedKey(fp)
		return err == nil, err
	})
	if errors.Is(err, persistence.ErrNotFound) {
		return false, nil
	}
	return known, err
}

func notFound(err error) bool { return errors.Is(err, persistence.ErrNotFound) }
