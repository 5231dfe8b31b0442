package persistence

import (
	"errors"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// Journal adapts a Store to table.Journal, the room actor's hook, and
// loads saved rooms back for table.Hub.Restore. A room's code is its ID.
type Journal struct {
	Store Store
	// Variant names a finished game's variant for players' stats (e.g. a
	// difficulty read from the options). Nil: no variant.
	Variant func(table.RoomRecord) string
}

var _ table.Journal = Journal{}

// Append implements table.Journal. A fenced append (another writer, on a
// cluster another node, stored that number first) is also a
// table.ErrNotOwner: the room must stop.
func (j Journal) Append(room string, seq uint64, entry []byte) error {
	err := j.Store.Append(room, seq, entry)
	if errors.Is(err, ErrFenced) {
		return fmt.Errorf("%w: %w", table.ErrNotOwner, err)
	}
	return err
}

// SaveRoom implements table.Journal. A room first saved as over counts in
// its players' stats (see PutRoom).
func (j Journal) SaveRoom(rec table.RoomRecord) error {
	r := FromEngine(rec)
	if j.Variant != nil && r.Status == StatusFinished {
		r.Variant = j.Variant(rec)
	}
	_, err := j.Store.PutRoom(r)
	return err
}

// SavedRoom is a room to restore: its record and action log.
type SavedRoom struct {
	Record table.RoomRecord
	Log    [][]byte
}

// Restorable returns the rooms that were waiting or playing, with their
// logs, for table.Hub.Restore after a restart.
func (j Journal) Restorable() ([]SavedRoom, error) {
	rooms, err := j.Store.Rooms(StatusWaiting, StatusPlaying)
	if err != nil {
		return nil, err
	}
	out := make([]SavedRoom, 0, len(rooms))
	for _, r := range rooms {
		entries, err := j.Store.Log(r.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, SavedRoom{Record: r.Engine(), Log: entries})
	}
	return out, nil
}

// FromEngine converts the room actor's record. Status over is finished;
// closed is finished if the game has a result, else abandoned.
func FromEngine(r table.RoomRecord) RoomRecord {
	setup := r.Setup
	if setup.Game == "" {
		setup.Game = r.Game
	}
	if setup.Options == nil {
		setup.Options = r.GameOptions
	}
	status := Status(r.Status)
	switch {
	case r.Status == table.StatusOver, r.Status == table.StatusClosed && r.Result != nil:
		status = StatusFinished
	case r.Status == table.StatusClosed:
		status = StatusAbandoned
	}
	seats := make([]SeatRecord, len(r.Seats))
	for i, s := range r.Seats {
		seats[i] = SeatRecord{Seat: s.Seat, Identity: s.Identity, Name: s.Name, Bot: s.Bot, Guest: s.Guest, Badge: string(s.Badge), Pick: s.Pick, Left: s.Left,
			Gender: s.Gender.Code()}
	}
	return RoomRecord{
		ID: r.Code, Code: r.Code, Title: r.Title, Setup: setup, Seed: r.Seed, Seats: seats,
		Status: status, Host: r.Host, Creator: r.Creator, Options: r.Options, Seq: r.Seq, Created: r.Created, Updated: r.Updated,
		Result: r.Result, Timer: r.Timer, First: r.First, Removed: r.Removed,
		Started: r.Started, Waiting: r.Waiting, Deadline: r.Deadline,
	}
}

// Engine converts a stored room to the room actor's record.
func (r RoomRecord) Engine() table.RoomRecord {
	status := table.RoomStatus(r.Status)
	switch r.Status {
	case StatusFinished:
		status = table.StatusOver
	case StatusAbandoned:
		status = table.StatusClosed
	}
	seats := make([]table.SeatRecord, len(r.Seats))
	for i, s := range r.Seats {
		seats[i] = table.SeatRecord{Seat: s.Seat, Identity: s.Identity, Name: s.Name, Bot: s.Bot, Guest: s.Guest, Badge: table.Badge(s.Badge), Pick: s.Pick, Left: s.Left}
		seats[i].Gender, _ = game.ParseGender(s.Gender)
	}
	return table.RoomRecord{
		Code: r.Code, Game: r.Setup.Game, Title: r.Title, GameOptions: r.Setup.Options, Setup: r.Setup,
		Seed: r.Seed, Seats: seats, Status: status, Host: r.Host, Creator: r.Creator, Options: r.Options, Seq: r.Seq,
		Result: r.Result, Timer: r.Timer, First: r.First, Created: r.Created, Updated: r.Updated, Removed: r.Removed,
		Started: r.Started, Waiting: r.Waiting, Deadline: r.Deadline,
	}
}
