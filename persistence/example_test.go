package persistence_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// A table's life: create the room, append each accepted action before
// publishing it, rebuild after a restart from the log.
func Example() {
	dir, err := os.MkdirTemp("", "bivouac-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "bivouac.db")

	s, err := persistence.Open(path, persistence.Options{})
	if err != nil {
		log.Fatal(err)
	}
	rec, err := s.PutRoom(persistence.RoomRecord{
		ID:     "K7QX",
		Code:   "K7QX",
		Setup:  game.Setup{Game: "grizzled", Names: []string{"ann", "bob"}},
		Seed:   42,
		Status: persistence.StatusPlaying,
		Seats: []persistence.SeatRecord{
			{Seat: 0, Identity: "SHA256:ann", Name: "ann"},
			{Seat: 1, Identity: "SHA256:bob", Name: "bob"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	for seq, action := range []string{"ann: play 3", "bob: withdraw", "ann: play 7"} {
		// Durable when Append returns: only now may the views go out.
		if err := s.Append(rec.ID, uint64(seq+1), []byte(action)); err != nil {
			log.Fatal(err)
		}
	}
	// A second server on the same data dir is refused, not blocked.
	if _, err := persistence.Open(path, persistence.Options{Timeout: 10 * time.Millisecond}); errors.Is(err, persistence.ErrInUse) {
		fmt.Println("second server:", persistence.ErrInUse)
	}
	s.Close()

	// After a restart: resume every table that was playing.
	s, err = persistence.Open(path, persistence.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	playing, _ := s.Rooms(persistence.StatusPlaying)
	for _, r := range playing {
		entries, _ := s.Log(r.ID)
		for i, e := range entries {
			fmt.Printf("%s #%d %s\n", r.ID, i+1, e)
		}
	}
	// Output:
	// second server: database is in use by another bivouac process
	// K7QX #1 ann: play 3
	// K7QX #2 bob: withdraw
	// K7QX #3 ann: play 7
}
