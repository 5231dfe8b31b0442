package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// Options tune both ends.
type Options struct {
	// Keepalive is how often a remote session tells the owner it is there
	// (default 2 s). The owner detaches a session silent for five of these
	// (its node died or was cut off), and a session whose owner does not
	// answer three in a row, or is gone, is told the table closed.
	Keepalive time.Duration
	// CallTimeout bounds a request that waits for the room (default 5 s).
	CallTimeout time.Duration
	// ResumeWithin bounds how long a session whose owner is lost waits
	// for another node to run the table before it is told the table
	// closed (default 30 s: a takeover after a node died takes 5–10 s).
	ResumeWithin time.Duration
	Logger       *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Keepalive <= 0 {
		o.Keepalive = 2 * time.Second
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 5 * time.Second
	}
	if o.ResumeWithin <= 0 {
		o.ResumeWithin = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Owner serves one room whose actor runs on this node to sessions on
// other nodes.
type Owner struct {
	nc    *nats.Conn
	room  *table.Room
	game  game.Game
	codec game.ViewCodec
	opts  Options
	sub   *nats.Subscription

	mu       sync.Mutex
	sessions map[string]*remoteSession
	closed   bool
	stop     chan struct{}
	wg       sync.WaitGroup
}

// remoteSession is one session on another node: the mailbox the room
// fills, which forward drains onto the session's subject.
type remoteSession struct {
	id       string
	box      *table.Mailbox
	done     chan struct{} // closed when forwarding ends
	lastSeen atomic.Int64  // unix ns of its last request
	resync   chan struct{} // the session missed a delivery: send the last whole again

	sent sent // owned by forward
}

// Serve answers requests about room on nc until Close or until the room's
// actor stops. g is the room's game (its action and view codecs).
func Serve(nc *nats.Conn, room *table.Room, g game.Game, opts Options) (*Owner, error) {
	vc, ok := g.(game.ViewCodec)
	if !ok {
		return nil, fmt.Errorf("remote: %s's views cannot travel (no game.ViewCodec)", g.ID())
	}
	o := &Owner{nc: nc, room: room, game: g, codec: vc, opts: opts.withDefaults(),
		sessions: map[string]*remoteSession{}, stop: make(chan struct{})}
	sub, err := nc.Subscribe(roomSubject(room.Code(), "*"), o.handle)
	if err != nil {
		return nil, fmt.Errorf("remote: serving %s: %w", room.Code(), err)
	}
	if err := nc.Flush(); err != nil { // the subscription is live on this node's server
		_ = sub.Unsubscribe() // fails only with the connection, which takes the subscription along
		return nil, fmt.Errorf("remote: serving %s: %w", room.Code(), err)
	}
	o.sub = sub
	o.wg.Go(o.reap)
	o.wg.Go(func() {
		select {
		case <-room.Done():
			// Nobody answers for a stopped room: its code is free. This
			// fails only with the connection, which ends the subscription.
			_ = sub.Unsubscribe()
		case <-o.stop:
		}
	})
	return o, nil
}

// spawn runs f on its own goroutine unless the owner is closing.
func (o *Owner) spawn(f func()) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	o.wg.Go(f)
	return true
}

// Close stops serving: no request is answered and nothing is forwarded
// any more. The room itself goes on (its sessions here are untouched);
// remote sessions find out from their keepalive.
func (o *Owner) Close() {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.closed = true
	close(o.stop)
	o.mu.Unlock()
	_ = o.sub.Unsubscribe() // fails only with the connection, which ends the subscription
	o.wg.Wait()
}

// handle runs on the subscription's goroutine, one request at a time, so
// a session's moves and lines reach the room in the order it sent them.
// Requests that wait for the actor run on their own goroutine.
func (o *Owner) handle(m *nats.Msg) {
	op := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	var req request
	if err := json.Unmarshal(m.Data, &req); err != nil {
		o.respond(m, reply{Err: table.ToWire(game.ErrBadAction)})
		return
	}
	if op == opSummary {
		s := o.room.Summary()
		o.respond(m, reply{Summary: &s})
		return
	}
	if op == opJoin {
		o.join(m, req)
		return
	}
	s := o.session(req.Session)
	if s == nil {
		o.respond(m, reply{Err: table.ToWire(table.ErrNotSeated)})
		return
	}
	s.lastSeen.Store(time.Now().UnixNano())
	var err error
	switch op {
	case opPing:
		o.respond(m, reply{})
		return
	case opResync:
		select {
		case s.resync <- struct{}{}:
		default: // one is pending
		}
		return
	case opAct, opActNow:
		a, derr := o.game.DecodeAction(req.Action)
		if derr != nil {
			err = derr
			break
		}
		if op == opActNow {
			o.wait(m, func(ctx context.Context) error { return o.room.ActNow(ctx, s.box, req.Seq, a) })
			return
		}
		err = o.room.Act(s.box, req.Seq, a)
	case opSay:
		err = o.room.Say(s.box, req.Text)
	case opPick:
		err = o.room.Pick(s.box, req.Text)
	case opNameFirst:
		err = o.room.NameFirst(s.box, req.Seat)
	case opStart:
		o.wait(m, func(ctx context.Context) error { return o.room.Start(ctx, s.box) })
		return
	case opSetBot:
		o.wait(m, func(ctx context.Context) error { return o.room.SetBot(ctx, s.box, req.Seat, req.Level) })
		return
	case opRemove:
		o.wait(m, func(ctx context.Context) error { return o.room.Remove(ctx, s.box, req.Seat) })
		return
	case opLeave, opDetach, opStepAway:
		switch op {
		case opLeave:
			err = o.room.Leave(s.box)
		case opDetach:
			err = o.room.Detach(s.box)
		default:
			err = o.room.StepAway(s.box)
		}
		if err == nil {
			o.drop(s)
		}
	default:
		err = game.ErrBadAction
	}
	if m.Reply != "" {
		o.respond(m, reply{Err: table.ToWire(err)})
	} else if err != nil {
		o.refuse(s, err)
	}
}

// join makes a session for req.Session (or finds it: a join repeated
// after a lost answer), then joins the room off the subscription's
// goroutine.
func (o *Owner) join(m *nats.Msg, req request) {
	if len(req.Session) < 32 || strings.ContainsAny(req.Session, ".*> ") {
		o.respond(m, reply{Err: table.ToWire(game.ErrBadAction)})
		return
	}
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		o.respond(m, reply{Err: table.ToWire(table.ErrClosed)})
		return
	}
	s := o.sessions[req.Session]
	if s == nil {
		s = &remoteSession{id: req.Session, box: table.NewMailbox(), done: make(chan struct{}), resync: make(chan struct{}, 1)}
		o.sessions[s.id] = s
		o.wg.Go(func() { o.forward(s) })
	}
	s.lastSeen.Store(time.Now().UnixNano())
	o.mu.Unlock()
	o.spawn(func() {
		ctx, cancel := context.WithTimeout(context.Background(), o.opts.CallTimeout)
		defer cancel()
		seat, err := o.room.Join(ctx, req.Player, s.box, req.Watch)
		if err != nil {
			o.drop(s)
			o.respond(m, reply{Err: table.ToWire(err)})
			return
		}
		sum := o.room.Summary()
		o.respond(m, reply{Seat: seat, Summary: &sum})
	})
}

// wait runs call, which waits for the actor, on its own goroutine and
// answers m with its outcome.
func (o *Owner) wait(m *nats.Msg, call func(context.Context) error) {
	o.spawn(func() {
		ctx, cancel := context.WithTimeout(context.Background(), o.opts.CallTimeout)
		defer cancel()
		o.respond(m, reply{Err: table.ToWire(call(ctx))})
	})
}

func (o *Owner) session(id string) *remoteSession {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sessions[id]
}

// drop forgets a session and ends its forwarding.
func (o *Owner) drop(s *remoteSession) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.sessions[s.id] == s {
		delete(o.sessions, s.id)
		close(s.done)
	}
}

// forward publishes what the room puts in the session's mailbox on the
// session's subject. It is the only thing that waits on the network: the
// actor only ever Puts into the mailbox (newest wins), so a slow or dead
// remote node costs it nothing.
func (o *Owner) forward(s *remoteSession) {
	for {
		select {
		case <-s.done:
			return
		case <-o.stop:
			return
		case <-o.room.Done():
			o.drainClosed(s)
			return
		case <-s.resync:
			if s.sent.n > 0 {
				s.sent.full = true
				o.publish(s, s.sent.last)
			}
		case u := <-s.box.C():
			o.publish(s, *u)
			if u.Closed != table.Open {
				o.drop(s)
				return
			}
		}
	}
}

// drainClosed passes on the room's last word (why it closed) after its
// actor stopped.
func (o *Owner) drainClosed(s *remoteSession) {
	select {
	case u := <-s.box.C():
		o.publish(s, *u)
		if u.Closed != table.Open {
			return
		}
	default:
	}
	o.publish(s, table.Update{Room: o.room.Code(), Closed: table.Restarting})
}

// publish sends u on the session's subject, its logs as a delta from the
// last one sent.
func (o *Owner) publish(s *remoteSession, u table.Update) {
	w, d := s.sent.delta(u)
	b, err := table.EncodeUpdate(o.codec, w)
	if err != nil {
		o.opts.Logger.Error("remote: encoding an update", "room", o.room.Code(), "err", err)
		return
	}
	sum := o.room.Summary()
	d.Update, d.Summary = b, &sum
	msg, err := json.Marshal(d)
	if err != nil {
		o.opts.Logger.Error("remote: encoding a delivery", "room", o.room.Code(), "err", err)
		return
	}
	o.send(s, msg)
}

// refuse tells a session why a request it did not wait on was refused.
func (o *Owner) refuse(s *remoteSession, err error) {
	d, _ := json.Marshal(delivery{Refused: table.ToWire(err)})
	o.send(s, d)
}

// send publishes a delivery on the session's subject. One that cannot go
// (the connection is gone, or it is over the payload limit) is logged:
// a session that misses deliveries resyncs, or its keepalive finds the
// owner lost.
func (o *Owner) send(s *remoteSession, msg []byte) {
	if err := o.nc.Publish(sessionSubject(s.id), msg); err != nil {
		o.opts.Logger.Warn("remote: a delivery that cannot be sent", "room", o.room.Code(), "err", err)
	}
}

func (o *Owner) respond(m *nats.Msg, r reply) {
	if m.Reply == "" {
		return
	}
	b, _ := json.Marshal(r)
	if err := m.Respond(b); err != nil {
		// The caller times out and says the table is busy or gone.
		o.opts.Logger.Warn("remote: an answer that cannot be sent", "room", o.room.Code(), "err", err)
	}
}

// reap detaches sessions whose node stopped asking after them: the seat
// stays the player's, as when a connection drops here.
func (o *Owner) reap() {
	tick := time.NewTicker(o.opts.Keepalive)
	defer tick.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-o.room.Done():
			return
		case now := <-tick.C:
			limit := now.Add(-5 * o.opts.Keepalive).UnixNano()
			o.mu.Lock()
			var silent []*remoteSession
			for _, s := range o.sessions {
				if s.lastSeen.Load() < limit {
					silent = append(silent, s)
				}
			}
			o.mu.Unlock()
			for _, s := range silent {
				if o.room.Detach(s.box) == nil {
					o.drop(s)
				}
			}
		}
	}
}
