package table

import "context"

// Mailbox carries Updates from a room actor to one session. It holds one
// Update: a newer one replaces an unread older one, so Put never blocks and
// a session that stops reading only ever loses stale views.
//
// It carries each Update by pointer, allocated once by the room (which
// allocates with every move anyway), so that the session's pump can pass
// it on without allocating: a goroutine that allocates while the collector
// marks must first help it mark, 64 KB of scanning at the least, and the
// pumps of thousands of seats were thousands of such helpers
// (docs/PERFORMANCE.md, "why the collector stalls a move").
type Mailbox struct {
	ch chan *Update
}

// NewMailbox returns an empty mailbox.
func NewMailbox() *Mailbox { return &Mailbox{ch: make(chan *Update, 1)} }

// Put stores u, dropping any unread Update. Safe with a single producer
// (the room actor) and one consumer; with several producers the newest of
// them still wins eventually.
func (m *Mailbox) Put(u Update) {
	p := &u
	for {
		select {
		case m.ch <- p:
			return
		default:
			select { // drop the stale view, then retry
			case <-m.ch:
			default:
			}
		}
	}
}

// C is the channel the session's pump reads. An Update received is the
// reader's: nothing else holds or changes it.
func (m *Mailbox) C() <-chan *Update { return m.ch }

// Next waits for the next Update or for ctx to end.
func (m *Mailbox) Next(ctx context.Context) (Update, bool) {
	select {
	case u := <-m.ch:
		return *u, true
	case <-ctx.Done():
		return Update{}, false
	}
}
