package persistence

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

// A review is kept for a finished room only, read back as written (also
// after a reopen), and goes with the room.
func TestReviewsAreKeptWithFinishedRooms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bivouac.db")
	s := openAt(t, path)
	mustPutRoom(t, s, testRoom("live"))
	if err := s.PutReview("live", json.RawMessage(`{"x":1}`)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("review of a game in progress: %v; want ErrInvalid", err)
	}
	if err := s.PutReview("nope", json.RawMessage(`{}`)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("review of no room: %v", err)
	}
	mustPutRoom(t, s, finished(testRoom("done")))
	if err := s.PutReview("done", json.RawMessage(`{"x`)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a review that is not JSON: %v", err)
	}
	if _, err := s.Review("done"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no review yet: %v", err)
	}
	if err := s.PutReview("done", json.RawMessage(`{"decisions":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openAt(t, path)
	defer s.Close()
	got, err := s.Review("done")
	if err != nil || string(got) != `{"decisions":[1,2]}` {
		t.Fatalf("review %s, %v", got, err)
	}
	if err := s.DeleteRoom("done"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Review("done"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("review outlived its room: %v", err)
	}
}
