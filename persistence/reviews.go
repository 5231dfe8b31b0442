package persistence

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// PutReview stores the review of a finished room: computed once, read by
// every player of the game after. The review is the caller's JSON; the
// store only keeps it, with the room (DeleteRoom removes it).
func (s *Bolt) PutReview(roomID string, review json.RawMessage) error {
	if err := CheckKey("room id", roomID); err != nil {
		return err
	}
	if !json.Valid(review) {
		return fmt.Errorf("%w: review of %s is not JSON", ErrInvalid, roomID)
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		rec, err := getRoom(tx, roomID)
		if err != nil {
			return err
		}
		if rec.Status != StatusFinished {
			return fmt.Errorf("%w: room %s is %s, not finished", ErrInvalid, roomID, rec.Status)
		}
		return putJSON(tx.Bucket(bktReviews), roomID, review)
	})
}

// Review returns the stored review of a room, or ErrNotFound.
func (s *Bolt) Review(roomID string) (json.RawMessage, error) {
	if err := CheckKey("room id", roomID); err != nil {
		return nil, err
	}
	var out json.RawMessage
	err := s.view(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bktReviews).Get([]byte(roomID))
		if raw == nil {
			return fmt.Errorf("%w: review of %s", ErrNotFound, roomID)
		}
		var err error
		out, err = DecodeAt[json.RawMessage](bktReviews, []byte(roomID), raw)
		return err
	})
	return out, err
}
