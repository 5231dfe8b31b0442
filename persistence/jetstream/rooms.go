package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// PutRoom creates or replaces a room record (see persistence.Bolt.PutRoom)
// with a compare-and-set on the room directory. The write that finishes a
// room then counts the game in its players' profiles and lists it in their
// histories; those are separate writes, so a node that dies between them
// loses that game's count (never the room or its log).
func (s *Store) PutRoom(rec persistence.RoomRecord) (persistence.RoomRecord, error) {
	if err := rec.Validate(); err != nil {
		return persistence.RoomRecord{}, err
	}
	var created, finishing bool
	stored, err := update(s, s.rooms, key(rec.ID), func(r *persistence.RoomRecord, found bool) error {
		var old *persistence.RoomRecord
		if found {
			o := *r
			old = &o
		}
		created = !found
		*r = rec
		var err error
		finishing, err = r.Stamp(old, s.now())
		return err
	})
	if err != nil {
		return persistence.RoomRecord{}, err
	}
	if created {
		// Only the writer that created the room clears what a deleted
		// room of the same ID may have left, before anyone appends.
		if err := s.clearLeftovers(rec.ID); err != nil {
			return stored, err
		}
	}
	if finishing {
		if err := s.countGame(stored); err != nil {
			return stored, err
		}
	}
	return stored, nil
}

// clearLeftovers removes a room's log and review. DeleteRoom calls it after
// removing the record (the room is gone for everyone at once); PutRoom
// calls it again when the ID is used anew, in case a crash came between.
func (s *Store) clearLeftovers(id string) error {
	ctx, cancel := s.ctx()
	defer cancel()
	s.tips.forget(id)
	if err := s.logs.Purge(ctx, js.WithPurgeSubject(s.subject(id))); err != nil {
		return err
	}
	if err := s.reviews.Purge(ctx, key(id)); err != nil && !errors.Is(err, js.ErrKeyNotFound) {
		return err
	}
	return nil
}

// finishedRef is a player's history entry: which room, finished when.
type finishedRef struct {
	Room     string    `json:"room"`
	Finished time.Time `json:"finished"`
}

func finishedKey(fp, room string) string { return key(fp) + "." + key(room) }

// countGame adds a finished room to its keyed players' stats and
// histories.
func (s *Store) countGame(rec persistence.RoomRecord) error {
	for _, fp := range rec.KeyedPlayers() {
		if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error {
			rec.CountIn(p)
			return nil
		}); err != nil {
			return err
		}
	}
	return s.listFinished(rec)
}

// listFinished lists a finished room in its keyed players' histories.
func (s *Store) listFinished(rec persistence.RoomRecord) error {
	for _, fp := range rec.KeyedPlayers() {
		ctx, cancel := s.ctx()
		err := overwrite(ctx, s.finished, finishedKey(fp, rec.ID), finishedRef{Room: rec.ID, Finished: rec.Finished})
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// Room returns one room, or ErrNotFound.
func (s *Store) Room(id string) (persistence.RoomRecord, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	return s.room(ctx, id)
}

func (s *Store) room(ctx context.Context, id string) (persistence.RoomRecord, error) {
	return one[persistence.RoomRecord](ctx, s.rooms, "room id", id)
}

// Rooms lists the rooms with any of the given statuses (all when none is
// given), grouped by status in the order given, each group by ID. It
// reads the whole directory: there is no status index on JetStream.
func (s *Store) Rooms(statuses ...persistence.Status) ([]persistence.RoomRecord, error) {
	ctx, cancel := s.scanCtx()
	defer cancel()
	var all []persistence.RoomRecord
	err := scan(ctx, s.rooms, ">", func(v []byte) error {
		r, err := persistence.Decode[persistence.RoomRecord](v)
		all = append(all, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b persistence.RoomRecord) int { return strings.Compare(a.ID, b.ID) })
	if len(statuses) == 0 {
		return all, nil
	}
	var out []persistence.RoomRecord
	for _, st := range statuses {
		for _, r := range all {
			if r.Status == st {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// DeleteRoom removes a room, then its log, review and history entries.
// The record goes first: the room is gone for everyone at once, and
// whatever a crash leaves behind is cleared when the ID is used again
// (history entries of a room that is gone are skipped).
func (s *Store) DeleteRoom(id string) error {
	if err := persistence.CheckKey("room id", id); err != nil {
		return err
	}
	for range maxAttempts {
		ctx, cancel := s.ctx()
		rec, rev, found, err := get[persistence.RoomRecord](ctx, s.rooms, key(id))
		if err == nil && !found {
			err = fmt.Errorf("room %q: %w", id, persistence.ErrNotFound)
		}
		if err == nil {
			err = s.rooms.Delete(ctx, key(id), js.LastRevision(rev))
		}
		cancel()
		if conflict(err) {
			continue
		}
		if err != nil {
			return err
		}
		if err := s.clearLeftovers(id); err != nil {
			return err
		}
		ctx, cancel = s.ctx()
		defer cancel()
		for _, fp := range rec.KeyedPlayers() {
			if err := s.finished.Purge(ctx, finishedKey(fp, id)); err != nil && !errors.Is(err, js.ErrKeyNotFound) {
				return err
			}
		}
		return nil
	}
	return errContention
}

// FinishedGames returns the finished rooms fp sat in, newest first, at
// most limit (all when limit <= 0).
func (s *Store) FinishedGames(fp string, limit int) ([]persistence.RoomRecord, error) {
	if err := persistence.CheckKey("fingerprint", fp); err != nil {
		return nil, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	var refs []finishedRef
	err := scan(ctx, s.finished, key(fp)+".*", func(v []byte) error {
		ref, err := persistence.Decode[finishedRef](v)
		refs = append(refs, ref)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(refs, func(a, b finishedRef) int {
		if c := b.Finished.Compare(a.Finished); c != 0 {
			return c
		}
		return strings.Compare(b.Room, a.Room)
	})
	var out []persistence.RoomRecord
	for _, ref := range refs {
		if limit > 0 && len(out) == limit {
			break
		}
		r, err := s.room(ctx, ref.Room)
		if errors.Is(err, persistence.ErrNotFound) {
			continue // deleted, its history entry not yet
		}
		if err != nil {
			return nil, err
		}
		if r.Status == persistence.StatusFinished && r.Finished.Equal(ref.Finished) {
			out = append(out, r)
		}
	}
	return out, nil
}

// PutReview stores the review of a finished room.
func (s *Store) PutReview(roomID string, review json.RawMessage) error {
	if err := persistence.CheckKey("room id", roomID); err != nil {
		return err
	}
	if !json.Valid(review) {
		return fmt.Errorf("%w: review of %s is not JSON", persistence.ErrInvalid, roomID)
	}
	ctx, cancel := s.ctx()
	defer cancel()
	rec, err := s.room(ctx, roomID)
	if err != nil {
		return err
	}
	if rec.Status != persistence.StatusFinished {
		return fmt.Errorf("%w: room %s is %s, not finished", persistence.ErrInvalid, roomID, rec.Status)
	}
	return overwrite(ctx, s.reviews, key(roomID), review)
}

// Review returns the stored review of a room, or ErrNotFound.
func (s *Store) Review(roomID string) (json.RawMessage, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	return one[json.RawMessage](ctx, s.reviews, "room id", roomID)
}

// RetireRoom moves a finished room to newID (see persistence.Bolt): the
// log is copied entry by entry under newID, the record, history entries
// and review follow, and only then is the room deleted under id. A crash
// between leaves the room under both IDs, never under neither; asking
// again finishes the move.
func (s *Store) RetireRoom(id, newID string) error {
	if err := persistence.CheckKey("room id", newID); err != nil {
		return err
	}
	rec, err := s.Room(id)
	if err != nil {
		return err
	}
	if rec.Status != persistence.StatusFinished {
		return fmt.Errorf("%w: room %s is %s, not finished", persistence.ErrInvalid, id, rec.Status)
	}
	switch there, err := s.Room(newID); {
	case err == nil && (there.Code != rec.Code || !there.Finished.Equal(rec.Finished)):
		return fmt.Errorf("room %q: %w", newID, persistence.ErrExists)
	case err != nil && !errors.Is(err, persistence.ErrNotFound):
		return err
	}
	entries, err := s.Log(id)
	if err != nil {
		return err
	}
	moved := rec
	moved.ID = newID
	// The record first: Append refuses a log without one. Written as it
	// is, not through PutRoom, which would count the game again.
	if _, err := update(s, s.rooms, key(newID), func(r *persistence.RoomRecord, _ bool) error { *r = moved; return nil }); err != nil {
		return err
	}
	if err := s.clearLeftovers(newID); err != nil { // an earlier, unfinished move
		return err
	}
	for i, e := range entries {
		if err := s.Append(newID, uint64(i+1), e); err != nil {
			return err
		}
	}
	if err := s.listFinished(moved); err != nil {
		return err
	}
	if review, err := s.Review(id); err == nil {
		if err := s.PutReview(newID, review); err != nil {
			return err
		}
	} else if !errors.Is(err, persistence.ErrNotFound) {
		return err
	}
	return s.DeleteRoom(id)
}
