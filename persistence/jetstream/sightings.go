package jetstream

import (
	"errors"
	"fmt"
	"slices"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

var _ persistence.Sightings = (*Store)(nil)

// Keys of the sightings bucket: "id.<identity>" → what was seen of it,
// "name.<fold>" → the identities seen under a name (both base64, see key).
func sightingKey(id string) string   { return "id." + key(id) }
func seenNameKey(fold string) string { return "name." + key(fold) }

// MaxSightingMessages bounds the sightings bucket's stream: past it the
// oldest messages go (the records seen longest ago, and name index
// entries not written for as long), so no flood of new identities grows
// it without end between two prunes. Two messages an identity.
const MaxSightingMessages = 2 * 100_000

// NoteSightings merges each sighting into its record (compare-and-set),
// then adds it to its names' index.
func (s *Store) NoteSightings(ss []persistence.Sighting) error {
	var errs []error
	for _, sg := range ss {
		if err := persistence.CheckSighting(sg); err != nil {
			return err
		}
		var dropped []string
		_, err := update(s, s.sightings, sightingKey(sg.ID), func(rec *persistence.Sighting, _ bool) error {
			dropped = persistence.MergeSighting(rec, sg)
			return nil
		})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, n := range sg.Names {
			errs = append(errs, s.indexName(n.Fold, sg.ID, true))
		}
		for _, f := range dropped {
			errs = append(errs, s.indexName(f, sg.ID, false))
		}
	}
	return errors.Join(errs...)
}

// indexName adds id to (or takes it off) the index of fold.
func (s *Store) indexName(fold, id string, add bool) error {
	_, err := update(s, s.sightings, seenNameKey(fold), func(ids *[]string, _ bool) error {
		if add {
			*ids = persistence.IndexName(*ids, id)
		} else {
			*ids = slices.DeleteFunc(*ids, func(x string) bool { return x == id })
		}
		return nil
	})
	return err
}

// Sighting returns one identity's record, or ErrNotFound.
func (s *Store) Sighting(id string) (persistence.Sighting, error) {
	if err := persistence.CheckKey("sighting identity", id); err != nil {
		return persistence.Sighting{}, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	rec, _, found, err := get[persistence.Sighting](ctx, s.sightings, sightingKey(id))
	if err == nil && !found {
		err = fmt.Errorf("sighting %q: %w", id, persistence.ErrNotFound)
	}
	return rec, err
}

// SightingsNamed returns the identities seen under a name of that fold.
func (s *Store) SightingsNamed(fold string) ([]string, error) {
	if err := persistence.CheckKey("name fold", fold); err != nil {
		return nil, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	ids, _, _, err := get[[]string](ctx, s.sightings, seenNameKey(fold))
	return ids, err
}

// PruneSightings removes old records and, past most, the oldest. It walks
// the whole bucket (one round trip a record): call it seldom.
func (s *Store) PruneSightings(before time.Time, most int) (int, error) {
	ctx, cancel := s.scanCtx()
	defer cancel()
	var all []persistence.Sighting
	err := scan(ctx, s.sightings, "id.>", func(v []byte) error {
		rec, err := persistence.Decode[persistence.Sighting](v)
		all = append(all, rec)
		return err
	})
	if err != nil {
		return 0, err
	}
	gone := persistence.PruneOrder(all, before, most)
	for _, sg := range gone {
		err := s.sightings.Delete(ctx, sightingKey(sg.ID))
		if err != nil && !errors.Is(err, js.ErrKeyNotFound) {
			return 0, err
		}
		for _, n := range sg.Names {
			if err := s.indexName(n.Fold, sg.ID, false); err != nil {
				return 0, err
			}
		}
	}
	return len(gone), nil
}
