package persistence

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// Status is where a room is in its life.
type Status string

const (
	StatusWaiting   Status = "waiting"   // seats being filled in the lobby
	StatusPlaying   Status = "playing"   // the actor is running the game
	StatusFinished  Status = "finished"  // over, with a Result; kept for replays
	StatusAbandoned Status = "abandoned" // closed without a result; log kept
)

func (s Status) valid() bool {
	switch s {
	case StatusWaiting, StatusPlaying, StatusFinished, StatusAbandoned:
		return true
	}
	return false
}

// SeatRecord is who sits in one seat.
type SeatRecord struct {
	Seat     game.Seat `json:"seat"`
	Identity string    `json:"identity,omitempty"` // SSH key fingerprint; "" for bots and guests
	Name     string    `json:"name"`
	Bot      string    `json:"bot,omitempty"`    // bot level; "" for a human
	Guest    bool      `json:"guest,omitempty"`  // a keyless guest: never gets a profile
	Badge    string    `json:"badge,omitempty"`  // a mark earned elsewhere, e.g. "veteran"
	Pick     string    `json:"pick,omitempty"`   // the seat's own choice before the game
	Left     bool      `json:"left,omitempty"`   // the player gave the seat to a bot for the rest of the game
	Gender   string    `json:"gender,omitempty"` // how the seat's player asked to be addressed (game.Gender.Code)
}

// UnmarshalJSON also reads seats saved before badges, which said
// "veteran": true.
func (s *SeatRecord) UnmarshalJSON(b []byte) error {
	type plain SeatRecord
	var v struct {
		plain
		Veteran bool `json:"veteran"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = SeatRecord(v.plain)
	if v.Veteran && s.Badge == "" {
		s.Badge = "veteran"
	}
	return nil
}

// keyed reports whether the seat's identity has a profile.
func (s SeatRecord) keyed() bool { return s.Identity != "" && !s.Guest && s.Bot == "" }

// RoomRecord is a table: with its action log it is everything needed to
// replay the game (Setup, Seed, log), plus what the lobby shows.
type RoomRecord struct {
	ID      string       `json:"id"`   // stable key of the room and its log
	Code    string       `json:"code"` // the short join code shown in the lobby
	Title   game.Msg     `json:"title,omitzero"`
	Setup   game.Setup   `json:"setup"`
	Variant string       `json:"variant,omitempty"` // e.g. difficulty: a key of players' stats
	Seed    uint64       `json:"seed"`
	Seats   []SeatRecord `json:"seats"`
	Status  Status       `json:"status"`
	Host    string       `json:"host,omitempty"` // who hosts it now (a fingerprint)
	// Creator is who made it: they host it while they hold a seat, and
	// nobody removes them (older records: Host).
	Creator string `json:"creator,omitempty"`
	// Options are the table's, each at the top level of the record as
	// before they were one value (testdata/room-before-options.json).
	table.Options
	Seq      uint64             `json:"seq,omitempty"`     // actions applied when saved (the log is the truth)
	Created  time.Time          `json:"created"`           // set by PutRoom when zero
	Updated  time.Time          `json:"updated"`           // set by every PutRoom
	Finished time.Time          `json:"finished,omitzero"` // set by PutRoom when the status becomes finished
	Result   *game.Result       `json:"result,omitempty"`  // required when Status is finished
	Timer    *table.TimerRecord `json:"timer,omitempty"`   // the timed step under way (its deadline)
	First    int                `json:"first,omitempty"`   // 1 + the seat named to begin; 0: the draw
	Removed  []string           `json:"removed,omitempty"` // identities the host removed before the game: kept out
	Started  time.Time          `json:"started,omitzero"`  // a correspondence game's start: its first deadline counts from it
	Waiting  []string           `json:"waiting,omitempty"` // a correspondence table: whom it waits on (the log is the truth)
	Deadline time.Time          `json:"deadline,omitzero"` // and until when
}

// Validate refuses a record no store accepts (ErrInvalid).
func (r *RoomRecord) Validate() error {
	if err := CheckKey("room id", r.ID); err != nil {
		return err
	}
	if !r.Status.valid() {
		return fmt.Errorf("%w: room %s: status %q", ErrInvalid, r.ID, r.Status)
	}
	if r.Status == StatusFinished && r.Result == nil {
		return fmt.Errorf("%w: room %s: finished without a result", ErrInvalid, r.ID)
	}
	return nil
}

// PutRoom creates or replaces a room record and returns it as stored, with
// Created (if zero) and Updated stamped. Updating a room keeps its log.
//
// When a room enters StatusFinished, the same transaction counts the game
// in the profile of every keyed seat (not bots, not guests) under
// (Setup.Game, Variant, number of seats), as a win for the seats in
// Result.Winners. Storing a finished room again counts nothing, and a
// finished room cannot change status (ErrInvalid).
func (s *Bolt) PutRoom(rec RoomRecord) (RoomRecord, error) {
	if err := rec.Validate(); err != nil {
		return RoomRecord{}, err
	}
	// Many tables save at once (2,000 seating their players): they share
	// one transaction and one fsync, as Appends do. The commit may run fn again
	// in a fresh transaction, so it starts from a copy each time.
	stored := rec
	err := s.writes.do(func(tx *bolt.Tx) error {
		stored = rec
		return s.putRoom(tx, &stored)
	})
	if err != nil {
		return RoomRecord{}, err
	}
	return stored, nil
}

// putRoom stamps and stores rec, keeping the indexes and stats in step.
func (s *Bolt) putRoom(tx *bolt.Tx, rec *RoomRecord) error {
	rooms := tx.Bucket(bktRooms)
	var old *RoomRecord
	if raw := rooms.Get([]byte(rec.ID)); raw != nil {
		o, err := DecodeAt[RoomRecord](bktRooms, []byte(rec.ID), raw)
		if err != nil {
			return err
		}
		old = &o
		if err := unindexRoom(tx, old); err != nil {
			return err
		}
	}
	finishing, err := rec.Stamp(old, s.now())
	if err != nil {
		return err
	}
	if err := putJSON(rooms, rec.ID, *rec); err != nil {
		return err
	}
	if finishing {
		if err := s.countGame(tx, rec); err != nil {
			return err
		}
	}
	return indexRoom(tx, rec)
}

// countGame adds a finished game to its keyed players' stats.
func (s *Bolt) countGame(tx *bolt.Tx, rec *RoomRecord) error {
	for _, fp := range rec.KeyedPlayers() {
		_, err := s.updatePlayer(tx, fp, func(p *Profile) error {
			rec.CountIn(p)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Index keys: roomstatus holds status NUL id; finished holds
// fingerprint NUL finished-unix-nanos(8 bytes BE) NUL id for every keyed
// player of a finished room, so a profile's history is a prefix scan.
func statusKey(r *RoomRecord) []byte {
	return joinKey([]byte(r.Status), []byte(r.ID))
}

func finishedKeys(r *RoomRecord) [][]byte {
	if r.Status != StatusFinished {
		return nil
	}
	var keys [][]byte
	when := u64be(uint64(r.Finished.UnixNano()))
	for _, fp := range r.KeyedPlayers() {
		keys = append(keys, joinKey([]byte(fp), when, []byte(r.ID)))
	}
	return keys
}

func indexRoom(tx *bolt.Tx, r *RoomRecord) error {
	if err := tx.Bucket(bktRoomStatus).Put(statusKey(r), nil); err != nil {
		return err
	}
	fin := tx.Bucket(bktFinished)
	for _, k := range finishedKeys(r) {
		if err := fin.Put(k, []byte(r.ID)); err != nil {
			return err
		}
	}
	return nil
}

func unindexRoom(tx *bolt.Tx, r *RoomRecord) error {
	if err := tx.Bucket(bktRoomStatus).Delete(statusKey(r)); err != nil {
		return err
	}
	fin := tx.Bucket(bktFinished)
	for _, k := range finishedKeys(r) {
		if err := fin.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Room returns one room, or ErrNotFound.
func (s *Bolt) Room(id string) (RoomRecord, error) {
	var rec RoomRecord
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		rec, err = getRoom(tx, id)
		return err
	})
	return rec, err
}

func getRoom(tx *bolt.Tx, id string) (RoomRecord, error) {
	raw := tx.Bucket(bktRooms).Get([]byte(id))
	if raw == nil {
		return RoomRecord{}, fmt.Errorf("room %q: %w", id, ErrNotFound)
	}
	return DecodeAt[RoomRecord](bktRooms, []byte(id), raw)
}

// Rooms lists the rooms with any of the given statuses (all rooms when none
// is given), grouped by status in the order given, each group by ID. Use it
// at start-up to resume waiting and playing tables: it reads the status
// index, not every finished game.
func (s *Bolt) Rooms(statuses ...Status) ([]RoomRecord, error) {
	var out []RoomRecord
	err := s.view(func(tx *bolt.Tx) error {
		rooms := tx.Bucket(bktRooms)
		if len(statuses) == 0 {
			return rooms.ForEach(func(k, v []byte) error {
				rec, err := DecodeAt[RoomRecord](bktRooms, k, v)
				out = append(out, rec)
				return err
			})
		}
		c := tx.Bucket(bktRoomStatus).Cursor()
		for _, st := range statuses {
			prefix := append([]byte(st), 0)
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
				rec, err := getRoom(tx, string(k[len(prefix):]))
				if err != nil {
					return err
				}
				out = append(out, rec)
			}
		}
		return nil
	})
	return out, err
}

// DeleteRoom removes a room with its log, snapshot and index entries.
// Campaign history may still name it.
func (s *Bolt) DeleteRoom(id string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		rec, err := getRoom(tx, id)
		if err != nil {
			return err
		}
		if err := unindexRoom(tx, &rec); err != nil {
			return err
		}
		if err := tx.Bucket(bktRooms).Delete([]byte(id)); err != nil {
			return err
		}
		if err := tx.Bucket(bktSnapshots).Delete([]byte(id)); err != nil {
			return err
		}
		if err := tx.Bucket(bktReviews).Delete([]byte(id)); err != nil {
			return err
		}
		logs := tx.Bucket(bktLogs)
		if logs.Bucket([]byte(id)) != nil {
			return logs.DeleteBucket([]byte(id))
		}
		return nil
	})
}

// FinishedGames returns the finished rooms a player sat in, newest first,
// at most limit of them (all when limit <= 0). Their logs replay them.
func (s *Bolt) FinishedGames(fp string, limit int) ([]RoomRecord, error) {
	if err := CheckKey("fingerprint", fp); err != nil {
		return nil, err
	}
	var out []RoomRecord
	err := s.view(func(tx *bolt.Tx) error {
		prefix := append([]byte(fp), 0)
		end := append([]byte(fp), 1) // first key after every fp NUL ... key
		c := tx.Bucket(bktFinished).Cursor()
		var k, v []byte
		if after, _ := c.Seek(end); after == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			if limit > 0 && len(out) == limit {
				break
			}
			rec, err := getRoom(tx, string(v))
			if err != nil {
				return err
			}
			out = append(out, rec)
		}
		return nil
	})
	return out, err
}

// Forget implements table.Forgetter: a room closed without a result (its
// players gone) is deleted with its log, so that its record does not hold
// its code for ever. One already gone is no error.
func (j Journal) Forget(room string) error {
	if err := j.Store.DeleteRoom(room); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// RetireRoom moves a finished room, with its log, review and history
// entries, from id to newID, so that id (its public code) can name a new
// table while the game stays replayable under newID. The room must be
// finished (ErrInvalid) and newID free (ErrExists). Its players' stats
// are not counted again.
func (s *Bolt) RetireRoom(id, newID string) error {
	if err := CheckKey("room id", newID); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		rec, err := getRoom(tx, id)
		if err != nil {
			return err
		}
		if rec.Status != StatusFinished {
			return fmt.Errorf("%w: room %s is %s, not finished", ErrInvalid, id, rec.Status)
		}
		rooms := tx.Bucket(bktRooms)
		if rooms.Get([]byte(newID)) != nil {
			return fmt.Errorf("room %q: %w", newID, ErrExists)
		}
		if err := unindexRoom(tx, &rec); err != nil {
			return err
		}
		rec.ID = newID
		if err := putJSON(rooms, newID, rec); err != nil {
			return err
		}
		if err := indexRoom(tx, &rec); err != nil {
			return err
		}
		if err := rooms.Delete([]byte(id)); err != nil {
			return err
		}
		for _, name := range [][]byte{bktSnapshots, bktReviews} {
			if err := moveValue(tx.Bucket(name), id, newID); err != nil {
				return err
			}
		}
		return moveLog(tx.Bucket(bktLogs), id, newID)
	})
}

// moveValue moves b's value under id to newID, if there is one.
func moveValue(b *bolt.Bucket, id, newID string) error {
	v := b.Get([]byte(id))
	if v == nil {
		return nil
	}
	if err := b.Put([]byte(newID), bytes.Clone(v)); err != nil {
		return err
	}
	return b.Delete([]byte(id))
}

// moveLog moves a room's log bucket from id to newID.
func moveLog(logs *bolt.Bucket, id, newID string) error {
	old := logs.Bucket([]byte(id))
	if old == nil {
		return nil
	}
	moved, err := logs.CreateBucket([]byte(newID))
	if err != nil {
		return err
	}
	moved.FillPercent = 0.9
	if err := old.ForEach(func(k, v []byte) error { return moved.Put(bytes.Clone(k), bytes.Clone(v)) }); err != nil {
		return err
	}
	return logs.DeleteBucket([]byte(id))
}
