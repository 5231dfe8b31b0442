// Package notice brings a short line to one player on whatever screen they
// are: the lobby, their table or another, plain mode, on any node of a
// cluster. A notice may offer one key that acts on it (join the table an
// invitation names, accept a friend); the session rings the terminal's
// bell when one comes.
//
// A node keeps a Board: each session of a player opens an Inbox on it
// (Board.Open) and closes it when the session ends. Board.Post puts a
// notice in every inbox of its player on this node and hands it to the
// Relay, which carries it to the player's sessions on the other nodes,
// whose relays Deliver it there. Nothing waits for a player: an inbox
// holds at most MaxQueued notices not yet taken (the oldest make room),
// and its session hears of them on a one-slot channel, as a table's
// Updates come through a session's mailbox. A table, a friend's screen or
// a node that posts never blocks on a slow or gone session.
//
// A notice is a message, never a sentence (words.Msg): each session says
// it in its own language. Posting a notice under an ID already posted
// replaces it; Withdraw takes it back (an invitation whose table has
// started). A notice lapses at Until.
//
// What a notice may carry is a secret for its player only (a private
// table's code in an invitation): it goes to their inboxes and on their
// own subject between nodes, and is never logged.
package notice

import (
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// Notice is one line for one player.
type Notice struct {
	// ID names the notice: a second one with the same ID replaces it, and
	// Withdraw takes it back. Posters choose it ("invite:K7QX").
	ID string `json:"id"`
	// To is the player's identity; From the player whose doing it is
	// ("": the server), so a session can leave out whom it ignores.
	To   string `json:"to"`
	From string `json:"from,omitempty"`
	// Text is what the player reads, in their language.
	Text words.Msg `json:"text"`
	// Act is what the notice's one key does; zero: the notice only says.
	Act Act `json:"act,omitzero"`
	// Until is when it lapses; zero: Life after it was posted.
	Until time.Time `json:"until,omitzero"`
	// Quiet: no bell.
	Quiet bool `json:"quiet,omitempty"`
	// Desktop: worth a desktop notification too (their move, an
	// invitation), for a player who turned those on.
	Desktop bool `json:"desktop,omitempty"`
	// Gone marks a withdrawal (Withdraw): the notice ID is taken back.
	Gone bool `json:"gone,omitempty"`
}

// Act is what a notice's key does, named by a verb the sessions know:
// VerbJoin sits down at the table Arg names, VerbWatch watches it,
// VerbFriend accepts the friend request of the player Arg names. A
// session that does not know a verb shows the notice without a key.
// VerbDesktop is no key: the player changed their desktop notification
// choice (Arg: "", "9" or "777"); each session of theirs keeps it, and
// shows nothing (an older session shows the notice's Text).
type Act struct {
	Verb string `json:"verb"`
	Arg  string `json:"arg,omitempty"`
}

// The verbs every session knows.
const (
	VerbJoin   = "join"
	VerbWatch  = "watch"
	VerbFriend = "friend"
	// VerbDesktop: the player's desktop choice, for their sessions to keep.
	VerbDesktop = "desktop"
)

// Setting reports whether n carries a player's setting to their sessions
// (VerbDesktop) rather than a line to show.
func (n Notice) Setting() bool { return n.Act.Verb == VerbDesktop }

// IsZero reports whether a is no act.
func (a Act) IsZero() bool { return a.Verb == "" }

// Life is how long a notice posted without Until stays.
const Life = 2 * time.Minute

// MaxQueued is how many notices an inbox holds before its session takes
// them: past it the oldest goes. A session takes them as soon as its
// pump runs, so only a flood (or a session stuck for seconds) loses one.
const MaxQueued = 8

// Relay carries notices to a player's sessions on the other nodes of a
// cluster (nil on a single node). Relay must not block: it queues or
// sends and returns.
type Relay interface {
	Relay(n Notice)
}

// Board is a node's inboxes, by player. Its zero value is not ready: use
// NewBoard.
type Board struct {
	relay Relay
	now   func() time.Time

	mu    sync.Mutex
	boxes map[string][]*Inbox
}

// NewBoard is an empty board; now is its clock (nil: time.Now).
func NewBoard(now func() time.Time) *Board {
	if now == nil {
		now = time.Now
	}
	return &Board{now: now, boxes: map[string][]*Inbox{}}
}

// SetRelay has notices carried to the other nodes from now on. Call it
// before the board is used.
func (b *Board) SetRelay(r Relay) { b.relay = r }

// Open is a new inbox for a session of player id. Close it when the
// session ends.
func (b *Board) Open(id string) *Inbox {
	in := &Inbox{board: b, id: id, signal: make(chan struct{}, 1)}
	b.mu.Lock()
	b.boxes[id] = append(b.boxes[id], in)
	b.mu.Unlock()
	return in
}

// Here reports whether player id has a session on this node.
func (b *Board) Here(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.boxes[id]) > 0
}

// Post sends n to every session of its player, here and (through the
// relay) on the other nodes, and reports how many sessions here it
// reached. A notice without Until lapses Life from now.
func (b *Board) Post(n Notice) int {
	if n.Until.IsZero() && !n.Gone {
		n.Until = b.now().Add(Life)
	}
	here := b.Deliver(n)
	if b.relay != nil {
		b.relay.Relay(n)
	}
	return here
}

// Withdraw takes back the notice id of player to, wherever it shows.
func (b *Board) Withdraw(to, id string) {
	b.Post(Notice{ID: id, To: to, Gone: true})
}

// Deliver puts n in the inboxes of its player on this node only (what a
// relay calls with what another node posted) and reports how many. A
// notice that has lapsed is dropped.
func (b *Board) Deliver(n Notice) int {
	if !n.Gone && !n.Until.IsZero() && !b.now().Before(n.Until) {
		return 0
	}
	b.mu.Lock()
	boxes := b.boxes[n.To]
	for _, in := range boxes {
		in.put(n)
	}
	b.mu.Unlock()
	return len(boxes)
}

func (b *Board) close(in *Inbox) {
	b.mu.Lock()
	defer b.mu.Unlock()
	boxes := b.boxes[in.id]
	for i, x := range boxes {
		if x == in {
			boxes = append(boxes[:i:i], boxes[i+1:]...)
			break
		}
	}
	if len(boxes) == 0 {
		delete(b.boxes, in.id)
		return
	}
	b.boxes[in.id] = boxes
}

// Inbox is one session's notices on their way to its screen.
type Inbox struct {
	board  *Board
	id     string
	signal chan struct{}

	mu     sync.Mutex
	queue  []Notice
	closed bool
}

// C is signalled (one slot) when notices wait to be taken.
func (in *Inbox) C() <-chan struct{} { return in.signal }

// Take returns the notices that came since the last Take, oldest first,
// withdrawals among them (Gone).
func (in *Inbox) Take() []Notice {
	in.mu.Lock()
	defer in.mu.Unlock()
	q := in.queue
	in.queue = nil
	return q
}

// Close takes the inbox off its board: nothing more comes to it.
func (in *Inbox) Close() {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return
	}
	in.closed = true
	in.queue = nil
	in.mu.Unlock()
	in.board.close(in)
}

func (in *Inbox) put(n Notice) {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return
	}
	if len(in.queue) >= MaxQueued {
		in.queue = append(in.queue[:0], in.queue[1:]...)
	}
	in.queue = append(in.queue, n)
	in.mu.Unlock()
	select {
	case in.signal <- struct{}{}:
	default:
	}
}
