// Package playerbus carries messages addressed to one player to the
// nodes of a cluster where that player has a session, and nowhere else:
// notices (package notice) and friends' presence (package presence) cross
// nodes this way.
//
// # Subjects
//
// Each player has a subject of their own, bivouac.player.<tag>, where tag
// is 24 hex digits of the SHA-256 of their identity (identities hold
// characters a subject may not, and need not travel in subjects). A node
// listens on a player's subject while that player has a session there
// (Here, counted: the last session's release stops it), so a message to a
// player reaches only the nodes that serve them, and the cost of a message
// follows its addressee, never the number of players online: NATS sends
// it on a route only where a node listens. A message names its kind and
// its sending node in headers; a node ignores what it sent itself (it has
// delivered that to its own sessions already).
//
// # Never blocking
//
// Every subscription of a node delivers into one bounded channel, drained
// by one goroutine that calls the kind's handler: no goroutine per player
// (ten thousand players would be ten thousand goroutines), and a handler
// that falls behind loses messages (NATS drops what the channel cannot
// take, a slow consumer) rather than holding up the node's connection.
// Handlers must be quick and must not block: they hand messages on to
// mailboxes. Send publishes and returns; it never waits for an answer.
//
// # Beats
//
// Each node says it is alive on BeatSubject (Beat, its ID as the body);
// the others hear it (OnBeat): presence takes a node that falls silent
// as dead, and its players as gone. A node with no session says so
// (Quiet) and falls silent until it has one.
//
// # Who may send
//
// Only holders of the cluster's NATS credential connect (cluster/natsnode),
// so only the cluster's nodes publish here, as for the tables' subjects.
// Messages may carry a secret meant for their player alone (a private
// table's code in an invitation): it travels on that player's subject
// only, and this package logs nothing.
package playerbus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Prefix starts every player's subject.
const Prefix = "bivouac.player."

// BeatSubject carries every node's beat.
const BeatSubject = "bivouac.nodes.beat"

// Headers of a message: its kind, the node that sent it and the player it
// is for (the subject names them only by a hash).
const (
	hdrKind = "Bivouac-Kind"
	hdrFrom = "Bivouac-Node"
	hdrTo   = "Bivouac-To"
)

// Queue is how many messages a node holds for its handlers before NATS
// drops the next (a slow consumer).
const Queue = 8192

// Subject is player id's subject.
func Subject(id string) string {
	sum := sha256.Sum256([]byte(id))
	return Prefix + hex.EncodeToString(sum[:12])
}

// Handler takes one message for player to, sent by node from. It runs on
// the bus's goroutine: quick, and never blocking. reply, when not nil,
// answers an Ask (only the first answer counts).
type Handler func(to, from string, data []byte, reply func([]byte))

// Bus is one node's end of the players' subjects.
type Bus struct {
	nc   *nats.Conn
	node string
	in   chan *nats.Msg

	mu       sync.Mutex
	subs     map[string]*held
	handlers map[string]Handler
	closed   bool

	stop, done chan struct{}
}

type held struct {
	sub *nats.Subscription
	n   int
}

// New is node's end of the bus on nc; Close it when the node stops.
func New(nc *nats.Conn, node string) *Bus {
	b := &Bus{nc: nc, node: node, in: make(chan *nats.Msg, Queue), subs: map[string]*held{},
		handlers: map[string]Handler{}, stop: make(chan struct{}), done: make(chan struct{})}
	go b.run()
	return b
}

// Handle has messages of kind go to h. Set every handler before the first
// Here.
func (b *Bus) Handle(kind string, h Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers[kind] = h
}

// Here has this node listen on player id's subject until every call's
// release has been called (a player's sessions on this node).
func (b *Bus) Here(id string) (release func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return func() {}
	}
	h := b.subs[id]
	if h == nil {
		sub, err := b.nc.ChanSubscribe(Subject(id), b.in)
		if err != nil {
			return func() {} // the connection is closed: nothing reaches this node anyway
		}
		h = &held{sub: sub}
		b.subs[id] = h
	}
	h.n++
	var once sync.Once
	return func() { once.Do(func() { b.release(id, h) }) }
}

func (b *Bus) release(id string, h *held) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h.n--; h.n > 0 || b.subs[id] != h {
		return
	}
	delete(b.subs, id)
	_ = h.sub.Unsubscribe() // a closed connection has let it go already
}

// Send publishes data of kind to player to's nodes and returns at once.
func (b *Bus) Send(to, kind string, data []byte) error {
	return b.nc.PublishMsg(b.msg(to, kind, data))
}

// ErrNobody: no node answered an Ask (the player has no session, or
// their nodes did not answer in time).
var ErrNobody = errors.New("playerbus: no node answered")

// ErrSilent is the ErrNobody of an Ask that some node listens to (it
// serves the player, or did a moment ago) but that none answered within
// its time: a slow node, not an answer. errors.Is(ErrSilent, ErrNobody).
var ErrSilent = fmt.Errorf("%w in time, though a node listens", ErrNobody)

// Ask sends data of kind to player to's nodes and waits up to within for
// the first answer. This node never answers its own question: ask it
// directly first.
func (b *Bus) Ask(to, kind string, data []byte, within time.Duration) ([]byte, error) {
	m, err := b.nc.RequestMsg(b.msg(to, kind, data), within)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return nil, ErrNobody
	case errors.Is(err, nats.ErrTimeout):
		return nil, ErrSilent
	}
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

func (b *Bus) msg(to, kind string, data []byte) *nats.Msg {
	m := nats.NewMsg(Subject(to))
	m.Header.Set(hdrKind, kind)
	m.Header.Set(hdrFrom, b.node)
	m.Header.Set(hdrTo, to)
	m.Data = data
	return m
}

// Close stops listening; handlers are not called after it returns.
func (b *Bus) Close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	for id, h := range b.subs {
		_ = h.sub.Unsubscribe() // a closed connection has let it go already
		delete(b.subs, id)
	}
	b.mu.Unlock()
	close(b.stop) // not b.in: NATS may be delivering into it as we stop
	<-b.done
}

func (b *Bus) run() {
	defer close(b.done)
	for {
		var m *nats.Msg
		select {
		case m = <-b.in:
		case <-b.stop:
			return
		}
		from := m.Header.Get(hdrFrom)
		if from == b.node {
			continue // delivered here when it was sent
		}
		b.mu.Lock()
		h, closed := b.handlers[m.Header.Get(hdrKind)], b.closed
		b.mu.Unlock()
		if h == nil || closed {
			continue
		}
		var reply func([]byte)
		if m.Reply != "" {
			msg := m
			reply = func(data []byte) { _ = msg.Respond(data) } // the asker may have given up
		}
		h(m.Header.Get(hdrTo), from, m.Data, reply)
	}
}

// Beat says this node is alive (best effort: a lost beat is followed by
// the next).
func (b *Bus) Beat() { _ = b.nc.Publish(BeatSubject, []byte(b.node)) }

// hdrQuiet marks a beat that says its node has no session and stops
// beating until it has one (presence.Hub.Quiet). A node of an earlier
// release reads it as a beat, then takes the node as dead: its players
// are dropped, and there are none.
const hdrQuiet = "Bivouac-Quiet"

// Quiet says this node has no session, and beats no more until it has one.
func (b *Bus) Quiet() {
	m := nats.NewMsg(BeatSubject)
	m.Header.Set(hdrQuiet, "1")
	m.Data = []byte(b.node)
	_ = b.nc.PublishMsg(m)
}

// OnBeat has every other node's beat call heard with that node's ID, and
// whether it said it is quiet (Quiet), on NATS's goroutine for the
// subscription: heard must be quick.
func (b *Bus) OnBeat(heard func(node string, quiet bool)) error {
	_, err := b.nc.Subscribe(BeatSubject, func(m *nats.Msg) {
		if node := string(m.Data); node != b.node {
			heard(node, m.Header.Get(hdrQuiet) != "")
		}
	})
	return err
}
