package lease

import (
	"context"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/clock"
)

// Lapse is a room whose lease lapsed, and the revision of the entry left
// unchanged for a TTL (0: released).
type Lapse struct {
	Room     string
	Revision uint64
}

// WatchLapsed sends every room whose lease lapses: released, or left
// unchanged for a TTL on this node's clock (its holder died or was cut
// off). A room is sent once per lapse; a Claim that follows needs no further
// wait, as this manager remembers when it first saw the lapsed entry. The
// timers are this node's own: a lapse is reported on time even while the
// cluster does not answer. The channel closes when ctx ends or the watch
// fails.
func (m *Manager) WatchLapsed(ctx context.Context) (<-chan Lapse, error) {
	w, err := m.kv.WatchAll(ctx)
	if err != nil {
		return nil, err
	}
	out := make(chan Lapse)
	go m.watchLapsed(ctx, w, out)
	return out, nil
}

func (m *Manager) watchLapsed(ctx context.Context, w jetstream.KeyWatcher, out chan<- Lapse) {
	defer close(out)
	// The watch is over either way: a consumer a failed Stop leaves on
	// the server (its connection gone) expires there by itself.
	defer func() { _ = w.Stop() }()

	// Timers fire on the clock's goroutine (or a fake clock's caller); they
	// only note the lapse here and wake the loop, which owns everything else.
	var mu sync.Mutex
	due := map[string]uint64{} // room → revision whose TTL ran out
	wake := make(chan struct{}, 1)
	revision := map[string]uint64{}
	timers := map[string]clock.Timer{}
	defer func() {
		for _, t := range timers {
			t.Stop()
		}
	}()
	var queue []Lapse // not yet taken by the reader

	for {
		var send chan<- Lapse
		var next Lapse
		if len(queue) > 0 {
			send, next = out, queue[0]
		}
		select {
		case <-ctx.Done():
			return
		case send <- next:
			queue = queue[1:]
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil {
				continue // end of the initial values
			}
			room := e.Key()
			if t := timers[room]; t != nil {
				t.Stop()
				delete(timers, room)
			}
			if e.Operation() != jetstream.KeyValuePut {
				delete(revision, room)
				m.forgetSighting(room)
				queue = append(queue, Lapse{Room: room}) // released: free at once
				continue
			}
			rev := e.Revision()
			revision[room] = rev
			seen := m.sight(e, m.opt.Clock.Now())
			wait := m.opt.takeoverAt(seen).Sub(m.opt.Clock.Now())
			timers[room] = m.opt.Clock.AfterFunc(wait, func() {
				mu.Lock()
				due[room] = rev
				mu.Unlock()
				select {
				case wake <- struct{}{}:
				default:
				}
			})
		case <-wake:
			mu.Lock()
			lapsed := due
			due = map[string]uint64{}
			mu.Unlock()
			for room, rev := range lapsed {
				if revision[room] == rev { // not renewed since the timer was set
					delete(timers, room)
					queue = append(queue, Lapse{Room: room, Revision: rev})
				}
			}
		}
	}
}
