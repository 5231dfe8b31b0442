package persistence

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Sightings are what the server saw of each player, for its admins: the
// names they went by, the addresses they came from, their public key, and
// when. A ban holds a player's last address (a guest's, or one of a key
// holder's who is offline), and `admin history` shows the rest. Bolt and
// the JetStream store implement it alike (storetest.RunSightings).
type Sightings interface {
	// NoteSightings merges each sighting into its identity's record
	// (MergeSighting): one name, one address, a key, a moment each.
	NoteSightings(ss []Sighting) error
	// Sighting is one identity's record, or ErrNotFound.
	Sighting(id string) (Sighting, error)
	// SightingsNamed is the identities seen under a name whose fold is
	// fold (the caller folds: sanitize.Fold), the most recent last.
	SightingsNamed(fold string) ([]string, error)
	// PruneSightings removes the records last seen before before, then,
	// past most records, those last seen longest ago; it returns how many
	// it removed.
	PruneSightings(before time.Time, most int) (int, error)
}

// Bounds of one identity's record: the names and addresses seen last.
const (
	MaxSeenNames = 8
	MaxSeenAddrs = 16
	// MaxNamedIdentities is how many identities a name's index keeps: the
	// ones seen under it last.
	MaxNamedIdentities = 16
)

// Sighting is one identity as the server saw it.
type Sighting struct {
	ID    string     `json:"id"` // a key's fingerprint or a guest's ID
	Guest bool       `json:"guest,omitempty"`
	Key   string     `json:"key,omitempty"` // the public key, authorized_keys form
	First time.Time  `json:"first"`
	Last  time.Time  `json:"last"`
	Names []SeenName `json:"names,omitempty"` // oldest first
	Addrs []SeenAddr `json:"addrs,omitempty"` // oldest first
}

// SeenName is a name an identity went by.
type SeenName struct {
	Name  string    `json:"name"`
	Fold  string    `json:"fold"` // its fold, the key of the name index
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// SeenAddr is an address an identity came from.
type SeenAddr struct {
	Addr  string    `json:"addr"`
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// LastAddr is the address the identity came from last ("" if none).
func (s Sighting) LastAddr() string {
	var last SeenAddr
	for _, a := range s.Addrs {
		if !a.Last.Before(last.Last) {
			last = a
		}
	}
	return last.Addr
}

// MergeSighting adds what seen saw (at seen.Last; one name and one
// address at most) to rec, and returns the folds of names that fell off
// the record's list (their index entries are to go).
func MergeSighting(rec *Sighting, seen Sighting) (dropped []string) {
	at := seen.Last
	if rec.ID == "" {
		*rec = Sighting{ID: seen.ID, Guest: seen.Guest, First: at}
	}
	if at.After(rec.Last) {
		rec.Last = at
	}
	if at.Before(rec.First) {
		rec.First = at
	}
	if seen.Key != "" {
		rec.Key = seen.Key
	}
	for _, n := range seen.Names {
		i := slices.IndexFunc(rec.Names, func(x SeenName) bool { return x.Name == n.Name })
		if i < 0 {
			rec.Names = append(rec.Names, SeenName{Name: n.Name, Fold: n.Fold, First: at, Last: at})
		} else if at.After(rec.Names[i].Last) {
			rec.Names[i].Last = at
		}
	}
	for _, a := range seen.Addrs {
		i := slices.IndexFunc(rec.Addrs, func(x SeenAddr) bool { return x.Addr == a.Addr })
		if i < 0 {
			rec.Addrs = append(rec.Addrs, SeenAddr{Addr: a.Addr, First: at, Last: at})
		} else if at.After(rec.Addrs[i].Last) {
			rec.Addrs[i].Last = at
		}
	}
	slices.SortStableFunc(rec.Names, func(a, b SeenName) int { return a.Last.Compare(b.Last) })
	slices.SortStableFunc(rec.Addrs, func(a, b SeenAddr) int { return a.Last.Compare(b.Last) })
	if n := len(rec.Names) - MaxSeenNames; n > 0 {
		for _, old := range rec.Names[:n] {
			if !slices.ContainsFunc(rec.Names[n:], func(x SeenName) bool { return x.Fold == old.Fold }) {
				dropped = append(dropped, old.Fold)
			}
		}
		rec.Names = slices.Clone(rec.Names[n:])
	}
	if n := len(rec.Addrs) - MaxSeenAddrs; n > 0 {
		rec.Addrs = slices.Clone(rec.Addrs[n:])
	}
	return dropped
}

// IndexName puts id last in a name's index list (ids), at most
// MaxNamedIdentities of them.
func IndexName(ids []string, id string) []string {
	ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
	ids = append(ids, id)
	if n := len(ids) - MaxNamedIdentities; n > 0 {
		ids = slices.Clone(ids[n:])
	}
	return ids
}

// CheckSighting refuses a sighting no store accepts.
func CheckSighting(s Sighting) error {
	if err := CheckKey("sighting identity", s.ID); err != nil {
		return err
	}
	for _, n := range s.Names {
		if err := CheckKey("sighting name fold", n.Fold); err != nil {
			return err
		}
	}
	return nil
}

// PruneOrder is the records to remove from all (those last seen before
// before, then the oldest past most), as the stores prune.
func PruneOrder(all []Sighting, before time.Time, most int) []Sighting {
	slices.SortFunc(all, func(a, b Sighting) int { return cmp.Or(a.Last.Compare(b.Last), cmp.Compare(a.ID, b.ID)) })
	cut := 0
	for cut < len(all) && all[cut].Last.Before(before) {
		cut++
	}
	if most >= 0 && len(all)-cut > most {
		cut = len(all) - most
	}
	return all[:cut]
}

// Buckets of sightings, made by the first write.
var (
	bktSightings = []byte("sightings")
	bktSeenNames = []byte("seen_names") // fold → identities seen under it
)

// NoteSightings merges the sightings in one transaction.
func (s *Bolt) NoteSightings(ss []Sighting) error {
	for _, sg := range ss {
		if err := CheckSighting(sg); err != nil {
			return err
		}
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		recs, err := tx.CreateBucketIfNotExists(bktSightings)
		if err != nil {
			return err
		}
		names, err := tx.CreateBucketIfNotExists(bktSeenNames)
		if err != nil {
			return err
		}
		for _, sg := range ss {
			var rec Sighting
			if raw := recs.Get([]byte(sg.ID)); raw != nil {
				if rec, err = Decode[Sighting](raw); err != nil {
					return err
				}
			}
			dropped := MergeSighting(&rec, sg)
			if err := putJSON(recs, sg.ID, rec); err != nil {
				return err
			}
			for _, n := range sg.Names {
				if err := indexName(names, n.Fold, sg.ID, true); err != nil {
					return err
				}
			}
			for _, f := range dropped {
				if err := indexName(names, f, sg.ID, false); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// indexName adds id to (or takes it off) the index of fold.
func indexName(b *bolt.Bucket, fold, id string, add bool) error {
	var ids []string
	if raw := b.Get([]byte(fold)); raw != nil {
		var err error
		if ids, err = Decode[[]string](raw); err != nil {
			return err
		}
	}
	if add {
		ids = IndexName(ids, id)
	} else {
		ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
	}
	if len(ids) == 0 {
		return b.Delete([]byte(fold))
	}
	return putJSON(b, fold, ids)
}

// Sighting returns one identity's record, or ErrNotFound.
func (s *Bolt) Sighting(id string) (Sighting, error) {
	if err := CheckKey("sighting identity", id); err != nil {
		return Sighting{}, err
	}
	var rec Sighting
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		rec, err = getAccess[Sighting](tx.Bucket(bktSightings), "sighting", id)
		return err
	})
	return rec, err
}

// SightingsNamed returns the identities seen under a name of that fold.
func (s *Bolt) SightingsNamed(fold string) ([]string, error) {
	if err := CheckKey("name fold", fold); err != nil {
		return nil, err
	}
	var ids []string
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		ids, err = getAccess[[]string](tx.Bucket(bktSeenNames), "name", fold)
		if errors.Is(err, ErrNotFound) {
			err = nil
		}
		return err
	})
	return ids, err
}

// PruneSightings removes old records and, past most, the oldest, in one
// transaction (a record seen meanwhile is judged by its newest sighting).
func (s *Bolt) PruneSightings(before time.Time, most int) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		recs, names := tx.Bucket(bktSightings), tx.Bucket(bktSeenNames)
		var all []Sighting
		if err := eachAccess(recs, func(sg Sighting) { all = append(all, sg) }); err != nil {
			return err
		}
		gone := PruneOrder(all, before, most)
		for _, sg := range gone {
			if err := recs.Delete([]byte(sg.ID)); err != nil {
				return err
			}
			for _, nm := range sg.Names {
				if names != nil {
					if err := indexName(names, nm.Fold, sg.ID, false); err != nil {
						return err
					}
				}
			}
		}
		n = len(gone)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning sightings: %w", err)
	}
	return n, nil
}

var _ Sightings = (*Bolt)(nil)
