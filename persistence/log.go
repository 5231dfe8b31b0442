package persistence

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Append stores entry as action number seq of a room's log and returns once
// it is durable (committed and fsynced).
//
// Sequence numbers start at 1 and must follow the last one stored: a gap
// is ErrSeq. Appending a number again with the same bytes succeeds and
// changes nothing, so a caller may retry after an error; the same number
// with different bytes is ErrFenced (another writer got there first). The room must exist (PutRoom first),
// else ErrNotFound; entry must not be empty.
//
// Concurrent Appends, for many rooms, share one transaction and one fsync
// (groupCommit). Each room must have a single writer (its actor): two
// goroutines racing on one room's next number would see ErrSeq.
func (s *Bolt) Append(roomID string, seq uint64, entry []byte) error {
	if err := CheckKey("room id", roomID); err != nil {
		return err
	}
	if seq == 0 {
		return fmt.Errorf("room %s: %w: sequence numbers start at 1", roomID, ErrSeq)
	}
	if len(entry) == 0 {
		return fmt.Errorf("%w: room %s action %d: empty entry", ErrInvalid, roomID, seq)
	}
	return s.writes.do(func(tx *bolt.Tx) error {
		// Idempotent by construction: a rerun finds either nothing (the
		// earlier attempt rolled back) or the identical entry.
		return appendTx(tx, roomID, seq, entry)
	})
}

func appendTx(tx *bolt.Tx, roomID string, seq uint64, entry []byte) error {
	id := []byte(roomID)
	if tx.Bucket(bktRooms).Get(id) == nil {
		return fmt.Errorf("room %q: %w", roomID, ErrNotFound)
	}
	b, err := tx.Bucket(bktLogs).CreateBucketIfNotExists(id)
	if err != nil {
		return err
	}
	b.FillPercent = 0.9 // keys arrive in increasing order: pack pages fuller
	key := u64be(seq)
	if old := b.Get(key); old != nil {
		if bytes.Equal(old, entry) {
			return nil
		}
		return fmt.Errorf("room %s action %d: %w: already stored with different bytes", roomID, seq, ErrFenced)
	}
	if last := lastSeq(b); seq != last+1 {
		return fmt.Errorf("room %s action %d: %w: last stored is %d", roomID, seq, ErrSeq, last)
	}
	return b.Put(key, entry)
}

func lastSeq(b *bolt.Bucket) uint64 {
	if b == nil {
		return 0
	}
	k, _ := b.Cursor().Last()
	if k == nil {
		return 0
	}
	return binary.BigEndian.Uint64(k)
}

// logBucket returns a room's log bucket (nil if nothing was appended yet),
// or ErrNotFound if the room does not exist.
func logBucket(tx *bolt.Tx, roomID string) (*bolt.Bucket, error) {
	if tx.Bucket(bktRooms).Get([]byte(roomID)) == nil {
		return nil, fmt.Errorf("room %q: %w", roomID, ErrNotFound)
	}
	return tx.Bucket(bktLogs).Bucket([]byte(roomID)), nil
}

// Log returns a room's whole action log in order: entry i is action i+1.
func (s *Bolt) Log(roomID string) ([][]byte, error) { return s.LogSince(roomID, 0) }

// LogSince returns the actions after number after, in order.
// The slices are copies, safe to keep.
func (s *Bolt) LogSince(roomID string, after uint64) ([][]byte, error) {
	var out [][]byte
	err := s.view(func(tx *bolt.Tx) error {
		b, err := logBucket(tx, roomID)
		if err != nil || b == nil {
			return err
		}
		want := after + 1
		if want == 0 { // after was the largest number: nothing follows
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(u64be(want)); k != nil; k, v = c.Next() {
			if got := binary.BigEndian.Uint64(k); got != want {
				return fmt.Errorf("%w: room %s log jumps from %d to %d", ErrCorrupt, roomID, want-1, got)
			}
			out = append(out, bytes.Clone(v)) // v dies with the transaction
			want++
		}
		return nil
	})
	return out, err
}

// LastSeq returns the number of the last action stored for a room (0 if
// none): the actor resumes from here.
func (s *Bolt) LastSeq(roomID string) (uint64, error) {
	var n uint64
	err := s.view(func(tx *bolt.Tx) error {
		b, err := logBucket(tx, roomID)
		n = lastSeq(b)
		return err
	})
	return n, err
}
