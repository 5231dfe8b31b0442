package jetstream

import (
	"context"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// RoomChange is one change of the room directory: a room's new record, or
// its deletion (Room holds only the ID then).
type RoomChange struct {
	Room    persistence.RoomRecord
	Deleted bool
}

// WatchRooms sends every room of the directory, then each change as it
// happens, until ctx ends (the channel then closes). It is for showing
// rooms (a lobby): a watch may be served by a replica a moment behind the
// leader, so decisions read the store instead.
func (s *Store) WatchRooms(ctx context.Context) (<-chan RoomChange, error) {
	w, err := s.rooms.WatchAll(ctx)
	if err != nil {
		return nil, err
	}
	out := make(chan RoomChange)
	go func() {
		defer close(out)
		// The watch is over either way: a consumer a failed Stop leaves
		// on the server (its connection gone) expires there by itself.
		defer func() { _ = w.Stop() }()
		check := time.NewTicker(watchCheck)
		defer check.Stop()
		var seen, behind uint64 // the last revision delivered; the stream's last one it lagged at the last check
		for {
			var e js.KeyValueEntry
			var ok bool
			select {
			case <-ctx.Done():
				return
			case <-check.C:
				// A watch can stall for good when the bucket's leader moves
				// as it is made (a young cluster): nothing more arrives.
				// If the bucket is past what came and was already past it
				// at the last check, end the watch: its reader makes
				// another, which sends everything again.
				last := s.lastRevision(ctx)
				if last > seen && behind > seen {
					return
				}
				behind = 0
				if last > seen {
					behind = last
				}
				continue
			case e, ok = <-w.Updates():
			}
			if !ok {
				return
			}
			if e == nil {
				continue // the end of the initial values
			}
			seen = max(seen, e.Revision())
			var c RoomChange
			if e.Operation() == js.KeyValuePut {
				r, err := persistence.Decode[persistence.RoomRecord](e.Value())
				if err != nil {
					continue // a record this build cannot read is not listed
				}
				c.Room = r
			} else {
				id, err := unkey(e.Key())
				if err != nil {
					continue
				}
				c.Room.ID, c.Deleted = id, true
			}
			select {
			case out <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// watchCheck is how often a watch of the rooms checks it is not stalled.
const watchCheck = 2 * time.Second

// lastRevision is the rooms bucket's last revision (0 if it cannot be read).
func (s *Store) lastRevision(ctx context.Context) uint64 {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	info, err := s.rooms.stream.Info(ctx)
	if err != nil {
		return 0
	}
	return info.State.LastSeq
}
