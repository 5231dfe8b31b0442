package persistence

import (
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The server marks itself alive every few seconds. After a crash, the
// last mark says when it stopped, so a timed step resumes with the time it
// had left then rather than losing the downtime (see table.RoomConfig.Stopped).

var keyAlive = []byte("alive")

// MarkAlive records t as the last moment the server was known to run.
func (s *Bolt) MarkAlive(t time.Time) error {
	return s.writes.do(func(tx *bolt.Tx) error {
		return tx.Bucket(bktMeta).Put(keyAlive, u64be(uint64(t.UnixNano())))
	})
}

// LastAlive is the last MarkAlive time, or the zero time if none.
func (s *Bolt) LastAlive() (time.Time, error) {
	var t time.Time
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bktMeta).Get(keyAlive); len(v) == 8 {
			t = time.Unix(0, int64(binary.BigEndian.Uint64(v)))
		}
		return nil
	})
	return t, err
}
