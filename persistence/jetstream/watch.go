package jetstream

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
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
	err := s.watch(ctx, s.rooms, ">", false, func(e js.KeyValueEntry) bool {
		var c RoomChange
		if e.Operation() == js.KeyValuePut {
			r, err := persistence.Decode[persistence.RoomRecord](e.Value())
			if err != nil {
				return true // a record this build cannot read is not listed
			}
			c.Room = r
		} else {
			id, err := unkey(s.rooms.short(e.Key()))
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
	return watchView(ctx, s, s.sanctions, ">", persistence.SortSanctions)
}

// WatchKeyListEntries sends every change an admin made to a key list,
// then all of them again after each new one (access.ListWatcher), until
// ctx ends or the watch fails (the channel then closes): a node follows
// the others' changes to the allowlist and the admins as they are made,
// rather than reading them every few seconds.
func (s *Store) WatchKeyListEntries(ctx context.Context) (<-chan []persistence.KeyListEntry, error) {
	return watchView(ctx, s, s.access, "list.>", persistence.SortKeyListEntries)
}

// watchView sends every record of b under pattern, then all of them again
// after each change, until ctx ends or the watch fails (the channel then
// closes).
func watchView[T any](ctx context.Context, s *Store, b *bucket, pattern string, sort func([]T)) (<-chan []T, error) {
	out := make(chan []T, 1)
	all := map[string]T{}
	initial := true
	send := func() bool {
		view := make([]T, 0, len(all))
		for _, v := range all {
			view = append(view, v)
		}
		sort(view)
		select {
		case out <- view:
			return true
		case <-ctx.Done():
			return false
		}
	}
	err := s.watch(ctx, b, pattern, true, func(e js.KeyValueEntry) bool {
		if e == nil { // the end of the initial values
			initial = false
			return send()
		}
		if e.Operation() == js.KeyValuePut {
			v, err := persistence.Decode[T](e.Value())
			if err != nil {
				return true // a record this build cannot read counts for nothing
			}
			all[e.Key()] = v
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

// watch follows every key of b under pattern, calling each with each entry (and, if
// withEnd, with nil at the end of the initial values) until ctx ends,
// each returns false, or the watch stalls; then ended.
//
// A watch can stall for good when its bucket's leader moves as it is
// made (a young cluster, a node that died): nothing more arrives. So it
// checks, while it is young and after each election of its bucket's
// leader (JetStream's advisory), every watchCheck for watchWary, that the
// bucket is not past what came; otherwise only every watchCalm: an idle
// cluster asks nothing of its buckets (it asked every 2 s, a request a
// watch).
func (s *Store) watch(ctx context.Context, b *bucket, pattern string, withEnd bool, each func(js.KeyValueEntry) bool, ended func()) error {
	elected := make(chan struct{}, 1)
	sub, err := s.js.Conn().Subscribe(electedSubject+"."+b.stream.CachedInfo().Config.Name, func(*nats.Msg) {
		select {
		case elected <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return err
	}
	w, err := b.kv.Watch(ctx, b.full(pattern))
	if err != nil {
		_ = sub.Unsubscribe()
		return err
	}
	go func() {
		defer ended()
		defer func() { _ = sub.Unsubscribe() }()
		// The watch is over either way: a consumer a failed Stop leaves
		// on the server (its connection gone) expires there by itself.
		defer func() { _ = w.Stop() }()
		wary := time.Now().Add(watchWary)
		check := time.NewTimer(watchCheck)
		defer check.Stop()
		var seen, behind uint64 // the last revision delivered; the bucket's last one it lagged at the last check
		for {
			var e js.KeyValueEntry
			var ok bool
			select {
			case <-ctx.Done():
				return
			case <-elected:
				wary = time.Now().Add(watchWary)
				check.Reset(watchCheck)
				continue
			case <-check.C:
				// If the bucket is past what came and was already past
				// it at the last check, end the watch: its reader makes
				// another, which sends everything again.
				last := s.lastRevision(ctx, b, pattern)
				if last > seen && behind > seen {
					return
				}
				behind = 0
				if last > seen {
					behind = last
				}
				if time.Now().Before(wary) {
					check.Reset(watchCheck)
				} else {
					check.Reset(watchCalm)
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

// How often a watch checks it is not stalled (see watch).
const (
	watchCheck = 2 * time.Second
	watchWary  = 30 * time.Second
	watchCalm  = 5 * time.Minute
)

// electedSubject is where JetStream tells of a stream's new leader
// (".<stream>" follows).
const electedSubject = "$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED"

// lastRevision is the last revision of b's keys under pattern (0 if it
// cannot be read).
func (s *Store) lastRevision(ctx context.Context, b *bucket, pattern string) uint64 {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	m, err := b.stream.GetLastMsgForSubject(ctx, b.prefix+pattern)
	if err != nil {
		return 0
	}
	return m.Sequence
}
