package jetstream

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

var _ persistence.AccessStore = (*Store)(nil)

// Keys of the access bucket: "invite.<id>" and "key.<fingerprint>" (the
// fingerprint base64-encoded, see key).
func inviteKey(id string) string   { return "invite." + key(id) }
func admittedKey(fp string) string { return "key." + key(fp) }
func keyListKey(list, fp string) string {
	return "list." + key(list) + "." + key(fp)
}

// CreateInvite stores a new invite: ErrExists if its ID is taken.
func (s *Store) CreateInvite(inv persistence.Invite) error {
	if err := persistence.CheckInvite(inv); err != nil {
		return err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	err := put(ctx, s.access, inviteKey(inv.ID), inv, 0)
	if conflict(err) {
		return fmt.Errorf("invite %q: %w", inv.ID, persistence.ErrExists)
	}
	return err
}

// Invite returns one invite, or ErrNotFound.
func (s *Store) Invite(id string) (persistence.Invite, error) {
	if err := persistence.CheckKey("invite id", id); err != nil {
		return persistence.Invite{}, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	inv, _, found, err := get[persistence.Invite](ctx, s.access, inviteKey(id))
	if err == nil && !found {
		err = fmt.Errorf("invite %q: %w", id, persistence.ErrNotFound)
	}
	return inv, err
}

// Invites returns every invite, oldest first.
func (s *Store) Invites() ([]persistence.Invite, error) {
	all, err := scanAccess[persistence.Invite](s, "invite.>")
	persistence.SortInvites(all)
	return all, err
}

// UpdateInvite changes an invite by compare-and-set, retrying fn on a
// lost race.
func (s *Store) UpdateInvite(id string, fn func(*persistence.Invite) error) (persistence.Invite, error) {
	if err := persistence.CheckKey("invite id", id); err != nil {
		return persistence.Invite{}, err
	}
	return update(s, s.access, inviteKey(id), func(inv *persistence.Invite, found bool) error {
		if !found {
			return fmt.Errorf("invite %q: %w", id, persistence.ErrNotFound)
		}
		if err := fn(inv); err != nil {
			return err
		}
		inv.ID = id
		return nil
	})
}

// DeleteInvite removes an invite.
func (s *Store) DeleteInvite(id string) error {
	if err := persistence.CheckKey("invite id", id); err != nil {
		return err
	}
	return s.deleteAccess(inviteKey(id), "invite", id)
}

// AdmitKey records an admitted key, replacing any record of it.
func (s *Store) AdmitKey(k persistence.AdmittedKey) error {
	if err := persistence.CheckKey("fingerprint", k.Fingerprint); err != nil {
		return err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	return overwrite(ctx, s.access, admittedKey(k.Fingerprint), k)
}

// AdmittedKey returns the record of an admitted key, or ErrNotFound. It
// reads the bucket's leader: a key admitted on another node is seen here
// as soon as the write returned there.
func (s *Store) AdmittedKey(fp string) (persistence.AdmittedKey, error) {
	if err := persistence.CheckKey("fingerprint", fp); err != nil {
		return persistence.AdmittedKey{}, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	k, _, found, err := get[persistence.AdmittedKey](ctx, s.access, admittedKey(fp))
	if err == nil && !found {
		err = fmt.Errorf("admitted key %q: %w", fp, persistence.ErrNotFound)
	}
	return k, err
}

// AdmittedKeys returns every admitted key in fingerprint order.
func (s *Store) AdmittedKeys() ([]persistence.AdmittedKey, error) {
	all, err := scanAccess[persistence.AdmittedKey](s, "key.>")
	slices.SortFunc(all, func(a, b persistence.AdmittedKey) int { return strings.Compare(a.Fingerprint, b.Fingerprint) })
	return all, err
}

// ForgetKey removes an admitted key.
func (s *Store) ForgetKey(fp string) error {
	if err := persistence.CheckKey("fingerprint", fp); err != nil {
		return err
	}
	return s.deleteAccess(admittedKey(fp), "admitted key", fp)
}

// PutKeyListEntry keeps a change to a key list.
func (s *Store) PutKeyListEntry(e persistence.KeyListEntry) error {
	if err := persistence.CheckKeyListEntry(e); err != nil {
		return err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	return overwrite(ctx, s.access, keyListKey(e.List, e.Fingerprint), e)
}

// DeleteKeyListEntry removes a change to a key list.
func (s *Store) DeleteKeyListEntry(list, fp string) error {
	if err := persistence.CheckKey("fingerprint", fp); err != nil {
		return err
	}
	return s.deleteAccess(keyListKey(list, fp), "key list entry", list+" "+fp)
}

// KeyListEntries returns every change kept, by list then fingerprint.
func (s *Store) KeyListEntries() ([]persistence.KeyListEntry, error) {
	all, err := scanAccess[persistence.KeyListEntry](s, "list.>")
	persistence.SortKeyListEntries(all)
	return all, err
}

// deleteAccess deletes a record of the access bucket, ErrNotFound if it
// has none.
func (s *Store) deleteAccess(k, kind, id string) error {
	ctx, cancel := s.ctx()
	defer cancel()
	e, err := s.access.Get(ctx, k)
	if err != nil {
		if errors.Is(err, js.ErrKeyNotFound) {
			return fmt.Errorf("%s %q: %w", kind, id, persistence.ErrNotFound)
		}
		return err
	}
	return s.access.Delete(ctx, k, js.LastRevision(e.Revision()))
}

// scanAccess decodes every live record of the access bucket under pattern.
func scanAccess[T any](s *Store, pattern string) ([]T, error) {
	ctx, cancel := s.scanCtx()
	defer cancel()
	var all []T
	err := scan(ctx, s.access, pattern, func(v []byte) error {
		x, err := persistence.Decode[T](v)
		all = append(all, x)
		return err
	})
	return all, err
}
