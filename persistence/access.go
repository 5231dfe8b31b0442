package persistence

import (
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Invite is an invitation to a server that lets in only listed keys: whoever
// logs in with its code and a key of their own has that key admitted for
// good (AdmittedKey). The code is a secret and is never stored: Hash is a
// hash of it, and ID a short public name an admin lists and revokes it by.
type Invite struct {
	ID      string    `json:"id"`
	Hash    string    `json:"hash"`
	By      string    `json:"by"`   // the admin who made it (a key fingerprint)
	Uses    int       `json:"uses"` // how many keys it may admit
	Used    int       `json:"used"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires,omitzero"` // zero: never
	Keys    []string  `json:"keys,omitempty"`   // the fingerprints it admitted, in order
}

// AdmittedKey is a key an invite let in.
type AdmittedKey struct {
	Fingerprint string    `json:"fp"`
	Invite      string    `json:"invite"`       // the invite's ID
	By          string    `json:"by,omitempty"` // who made the invite (a key fingerprint)
	At          time.Time `json:"at"`
}

// Key lists an admin may change from the console (KeyListEntry.List).
const (
	ListAdmins = "admins"
	ListAllow  = "allow"
)

// KeyListEntry is an admin's change to a key list (the admins, the
// allowlist) kept in the store rather than in the list's file: the file
// could not be written, or the server is a node of a cluster, whose store
// every node reads. It adds the key to the list, or with Removed takes it
// off whatever the file says.
type KeyListEntry struct {
	List        string    `json:"list"` // ListAdmins or ListAllow
	Fingerprint string    `json:"fp"`
	Key         string    `json:"key,omitempty"` // the public key, authorized_keys form
	Removed     bool      `json:"removed,omitempty"`
	By          string    `json:"by"` // the admin who made the change
	ByName      string    `json:"by_name,omitempty"`
	At          time.Time `json:"at"`
}

// CheckKeyListEntry refuses an entry no store accepts.
func CheckKeyListEntry(e KeyListEntry) error {
	if e.List != ListAdmins && e.List != ListAllow {
		return fmt.Errorf("%w: key list %q", ErrInvalid, e.List)
	}
	return CheckKey("fingerprint", e.Fingerprint)
}

// AccessStore keeps invites and the keys they admitted; Bolt and the
// JetStream store implement it, with the same meaning
// (storetest.RunAccess).
//
// UpdateInvite's fn may run more than once (a store retries it when a
// concurrent update wins the race), so it must only change its argument.
type AccessStore interface {
	// CreateInvite stores a new invite: ErrExists if its ID is taken,
	// ErrInvalid without an ID or hash.
	CreateInvite(inv Invite) error
	// Invite is one invite, or ErrNotFound.
	Invite(id string) (Invite, error)
	// Invites is every invite, oldest first.
	Invites() ([]Invite, error)
	// UpdateInvite lets fn change an invite and stores the result
	// (ErrNotFound if there is none; fn's error stores nothing). It
	// cannot change the ID.
	UpdateInvite(id string, fn func(*Invite) error) (Invite, error)
	// DeleteInvite removes an invite: ErrNotFound if there is none.
	DeleteInvite(id string) error

	// AdmitKey records an admitted key, replacing any record of it.
	AdmitKey(k AdmittedKey) error
	// AdmittedKey is the record of an admitted key, or ErrNotFound.
	AdmittedKey(fp string) (AdmittedKey, error)
	// AdmittedKeys is every admitted key, in fingerprint order.
	AdmittedKeys() ([]AdmittedKey, error)
	// ForgetKey removes an admitted key: ErrNotFound if there is none.
	ForgetKey(fp string) error

	// PutKeyListEntry keeps an admin's change to a key list, replacing
	// any of the same list and key.
	PutKeyListEntry(e KeyListEntry) error
	// DeleteKeyListEntry removes one: ErrNotFound if there is none.
	DeleteKeyListEntry(list, fp string) error
	// KeyListEntries is every change kept, by list then fingerprint.
	KeyListEntries() ([]KeyListEntry, error)
}

var _ AccessStore = (*Bolt)(nil)

// Buckets of access records. They are made by the first write (older
// databases lack them until then; reading one that is missing finds
// nothing).
var (
	bktInvites  = []byte("invites")
	bktAdmitted = []byte("admitted")
	bktKeyLists = []byte("keylists") // list NUL fingerprint → KeyListEntry
)

// CheckInvite refuses an invite no store accepts.
func CheckInvite(inv Invite) error {
	if err := CheckKey("invite id", inv.ID); err != nil {
		return err
	}
	if inv.Hash == "" {
		return fmt.Errorf("%w: invite %q has no hash", ErrInvalid, inv.ID)
	}
	return nil
}

// SortInvites orders invites oldest first (then by ID).
func SortInvites(all []Invite) {
	slices.SortFunc(all, func(a, b Invite) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// CreateInvite stores a new invite.
func (s *Bolt) CreateInvite(inv Invite) error {
	if err := CheckInvite(inv); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktInvites)
		if err != nil {
			return err
		}
		if b.Get([]byte(inv.ID)) != nil {
			return fmt.Errorf("invite %q: %w", inv.ID, ErrExists)
		}
		return putAccess(b, inv.ID, inv)
	})
}

// Invite returns one invite, or ErrNotFound.
func (s *Bolt) Invite(id string) (Invite, error) {
	if err := CheckKey("invite id", id); err != nil {
		return Invite{}, err
	}
	var inv Invite
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		inv, err = getAccess[Invite](tx.Bucket(bktInvites), "invite", id)
		return err
	})
	return inv, err
}

// Invites returns every invite, oldest first.
func (s *Bolt) Invites() ([]Invite, error) {
	var all []Invite
	err := s.view(func(tx *bolt.Tx) error {
		return eachAccess(tx.Bucket(bktInvites), func(inv Invite) { all = append(all, inv) })
	})
	SortInvites(all)
	return all, err
}

// UpdateInvite changes an invite in one transaction.
func (s *Bolt) UpdateInvite(id string, fn func(*Invite) error) (Invite, error) {
	if err := CheckKey("invite id", id); err != nil {
		return Invite{}, err
	}
	var inv Invite
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bktInvites)
		var err error
		if inv, err = getAccess[Invite](b, "invite", id); err != nil {
			return err
		}
		if err := fn(&inv); err != nil {
			return err
		}
		inv.ID = id
		return putAccess(b, id, inv)
	})
	if err != nil {
		return Invite{}, err
	}
	return inv, nil
}

// DeleteInvite removes an invite.
func (s *Bolt) DeleteInvite(id string) error {
	if err := CheckKey("invite id", id); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return deleteAccess(tx.Bucket(bktInvites), "invite", id) })
}

// AdmitKey records an admitted key.
func (s *Bolt) AdmitKey(k AdmittedKey) error {
	if err := CheckKey("fingerprint", k.Fingerprint); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktAdmitted)
		if err != nil {
			return err
		}
		return putAccess(b, k.Fingerprint, k)
	})
}

// AdmittedKey returns the record of an admitted key, or ErrNotFound.
func (s *Bolt) AdmittedKey(fp string) (AdmittedKey, error) {
	if err := CheckKey("fingerprint", fp); err != nil {
		return AdmittedKey{}, err
	}
	var k AdmittedKey
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		k, err = getAccess[AdmittedKey](tx.Bucket(bktAdmitted), "admitted key", fp)
		return err
	})
	return k, err
}

// AdmittedKeys returns every admitted key in fingerprint order.
func (s *Bolt) AdmittedKeys() ([]AdmittedKey, error) {
	var all []AdmittedKey
	err := s.view(func(tx *bolt.Tx) error {
		return eachAccess(tx.Bucket(bktAdmitted), func(k AdmittedKey) { all = append(all, k) })
	})
	return all, err // bbolt walks keys in byte order: fingerprint order
}

// ForgetKey removes an admitted key.
func (s *Bolt) ForgetKey(fp string) error {
	if err := CheckKey("fingerprint", fp); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return deleteAccess(tx.Bucket(bktAdmitted), "admitted key", fp) })
}

func keyListKey(list, fp string) string { return list + "\x00" + fp }

// PutKeyListEntry keeps a change to a key list.
func (s *Bolt) PutKeyListEntry(e KeyListEntry) error {
	if err := CheckKeyListEntry(e); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktKeyLists)
		if err != nil {
			return err
		}
		return putAccess(b, keyListKey(e.List, e.Fingerprint), e)
	})
}

// DeleteKeyListEntry removes a change to a key list.
func (s *Bolt) DeleteKeyListEntry(list, fp string) error {
	if err := CheckKey("fingerprint", fp); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		return deleteAccess(tx.Bucket(bktKeyLists), "key list entry", keyListKey(list, fp))
	})
}

// KeyListEntries returns every change kept, by list then fingerprint.
func (s *Bolt) KeyListEntries() ([]KeyListEntry, error) {
	var all []KeyListEntry
	err := s.view(func(tx *bolt.Tx) error {
		return eachAccess(tx.Bucket(bktKeyLists), func(e KeyListEntry) { all = append(all, e) })
	})
	return all, err // byte order of list NUL fingerprint
}

// SortKeyListEntries orders entries by list, then fingerprint.
func SortKeyListEntries(all []KeyListEntry) {
	slices.SortFunc(all, func(a, b KeyListEntry) int {
		return strings.Compare(keyListKey(a.List, a.Fingerprint), keyListKey(b.List, b.Fingerprint))
	})
}

func putAccess[T any](b *bolt.Bucket, k string, v T) error {
	raw, err := Encode(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(k), raw)
}

// getAccess decodes the record under k in b (nil b: a bucket not made yet,
// so nothing in it): ErrNotFound if there is none.
func getAccess[T any](b *bolt.Bucket, kind, k string) (T, error) {
	var v T
	var raw []byte
	if b != nil {
		raw = b.Get([]byte(k))
	}
	if raw == nil {
		return v, fmt.Errorf("%s %q: %w", kind, k, ErrNotFound)
	}
	return Decode[T](raw)
}

func eachAccess[T any](b *bolt.Bucket, fn func(T)) error {
	if b == nil {
		return nil
	}
	return b.ForEach(func(_, raw []byte) error {
		v, err := Decode[T](raw)
		if err != nil {
			return err
		}
		fn(v)
		return nil
	})
}

func deleteAccess(b *bolt.Bucket, kind, k string) error {
	if b == nil || b.Get([]byte(k)) == nil {
		return fmt.Errorf("%s %q: %w", kind, k, ErrNotFound)
	}
	return b.Delete([]byte(k))
}
