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
	out := make(chan RoomChange)
	err := s.watch(ctx, s.rooms, false, func(e js.KeyValueEntry) bool {
		var c RoomChange
		if e.Operation() == js.KeyValuePut {
			r, err := persistence.Decode[persistence.RoomRecord](e.Value())
			if err != nil {
				return true // a record this build cannot read is not listed
			}
			c.Room = r
		} else {
			id, err := unkey(e.Key())
			if err != nil {
				return true
			}
			c.Room.ID, c.Deleted = id, true
		}
		select {
		case out <- c:
			return true
		case <-ctx.Done():
			return false
		}
	}, func() { close(out) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WatchSanctions sends every sanction, then all of them again after each
// change (moderation.Watcher), until ctx ends or the watch fails (the
// channel then closes). Each node keeps the bans in memory this way: a
// login's check reads no store, and a ban made on one node holds on the
// others within moments. Like WatchRooms, it may be a moment behind the
// bucket's leader.
func (s *Store) WatchSanctions(ctx context.Context) (<-chan []persistence.Sanction, error) {
	out := make(chan []persistence.Sanction, 1)
	all := map[string]persistence.Sanction{}
	initial := true
	send := func() bool {
		view := make([]persistence.Sanction, 0, len(all))
		for _, sn := range all {
			view = append(view, sn)
		}
		persistence.SortSanctions(view)
		select {
		case out <- view:
			return true
		case <-ctx.Done():
			return false
		}
	}
	err := s.watch(ctx, s.sanctions, true, func(e js.KeyValueEntry) bool {
		if e == nil { // the end of the initial values
			initial = false
			return send()
		}
		if e.Operation() == js.KeyValuePut {
			sn, err := persistence.Decode[persistence.Sanction](e.Value())
			if err != nil {
				return true // a record this build cannot read holds nobody
			}
			all[e.Key()] = sn
		} else {
			delete(all, e.Key())
		}
		return initial || send()
	}, func() { close(out) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// watch follows every key of b, calling each with each entry (and, if
// withEnd, with nil at the end of the initial values) until ctx ends,
// each returns false, or the watch stalls; then ended.
func (s *Store) watch(ctx context.Context, b *bucket, withEnd bool, each func(js.KeyValueEntry) bool, ended func()) error {
	w, err := b.WatchAll(ctx)
	if err != nil {
		return err
	}
	go func() {
		defer ended()
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
				last := s.lastRevision(ctx, b)
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
			if e == nil && !withEnd {
				continue
			}
			if e != nil {
				seen = max(seen, e.Revision())
			}
			if !each(e) {
				return
			}
		}
	}()
	return nil
}

// watchCheck is how often a watch of the rooms checks it is not stalled.
const watchCheck = 2 * time.Second

// lastRevision is b's last revision (0 if it cannot be read).
func (s *Store) lastRevision(ctx context.Context, b *bucket) uint64 {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	info, err := b.stream.Info(ctx)
	if err != nil {
		return 0
	}
	return info.State.LastSeq
}
