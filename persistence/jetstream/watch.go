package jetstream

import (
	"context"

	js "github.com/nats-io/nats.go/jetstream"

	"bivouac/persistence"
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
		defer w.Stop()
		for {
			var e js.KeyValueEntry
			var ok bool
			select {
			case <-ctx.Done():
				return
			case e, ok = <-w.Updates():
			}
			if !ok {
				return
			}
			if e == nil {
				continue // the end of the initial values
			}
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
