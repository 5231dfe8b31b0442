package persistence

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Store is what the room actor, the lobby, profiles, campaigns, reviews and
// records need from storage. Bolt implements it on one machine; the
// jetstream package implements it on a NATS cluster. Both pass the same
// contract tests (persistence/storetest), which are the precise meaning of
// each method; the comments on Bolt's methods give the details.
//
// Methods are safe for concurrent use. The functions given to UpdatePlayer
// and UpdateCampaign may run more than once (a store retries them when a
// concurrent update wins the race), so they must only change their
// argument: no I/O, no side effects.
type Store interface {
	// Rooms and their action logs.
	PutRoom(rec RoomRecord) (RoomRecord, error)
	Room(id string) (RoomRecord, error)
	Rooms(statuses ...Status) ([]RoomRecord, error)
	DeleteRoom(id string) error
	RetireRoom(id, newID string) error
	FinishedGames(fp string, limit int) ([]RoomRecord, error)
	Append(roomID string, seq uint64, entry []byte) error
	Log(roomID string) ([][]byte, error)
	LogSince(roomID string, after uint64) ([][]byte, error)
	LastSeq(roomID string) (uint64, error)

	// Players.
	Player(fp string) (Profile, error)
	UpdatePlayer(fp string, fn func(*Profile) error) (Profile, error)
	Seen(fp, name string) (Profile, error)
	Left(fp string) error
	EachPlayer(fn func(Profile) error) error

	// Campaigns.
	CreateCampaign(c Campaign) (Campaign, error)
	Campaign(id string) (Campaign, error)
	Campaigns(fp string) ([]Campaign, error)
	UpdateCampaign(id string, fn func(*Campaign) error) (Campaign, error)
	RecordCampaignResult(id, roomID string, from int, players []string, won bool, next int, veteran bool) (Campaign, error)

	// Reviews of finished games.
	PutReview(roomID string, review json.RawMessage) error
	Review(roomID string) (json.RawMessage, error)

	// The last moment the server was known to run.
	MarkAlive(t time.Time) error
	LastAlive() (time.Time, error)

	Close() error
}

// Backuper is a Store that can write a consistent copy of itself as one
// file (Bolt). A clustered store keeps replicas instead.
type Backuper interface {
	Backup(w io.Writer) (int64, error)
	// SpooledBackup is Backup for a writer that may stall (a socket): the
	// store is never held while w is slow.
	SpooledBackup(w io.Writer) (int64, error)
}

var (
	_ Store    = (*Bolt)(nil)
	_ Backuper = (*Bolt)(nil)
)

// ErrFenced: an Append lost the race for its sequence number: another
// writer stored a different entry under that number first. It is also an
// ErrSeq. A room actor that sees it must stop: another node owns the room.
var ErrFenced = fmt.Errorf("%w: another writer appended first", ErrSeq)
