package remote

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// Handle is a table whose actor runs on another node, as a session on
// this node sees it: a table.RoomHandle whose calls travel as requests to
// the owner and whose Updates arrive on each session's own subject.
type Handle struct {
	nc    *nats.Conn
	code  string
	game  game.Game
	codec game.ViewCodec
	opts  Options

	mu       sync.Mutex
	summary  table.Summary
	sessions map[*table.Mailbox]*localSession
}

// localSession is one session here at the remote table.
type localSession struct {
	p     table.Player // who sits, and how (to seat them again: resume)
	watch bool
	box   *table.Mailbox
	stop  chan struct{}
	lost  chan struct{} // the owner said the table left it (keepalive resumes)
	check chan struct{} // ask after the owner now (CheckOwners)
	once  sync.Once

	mu       sync.Mutex
	id       string // the session's subject at the owner; a new one at each resume
	sub      *nats.Subscription
	resuming bool     // the owner is lost and a new one is being looked for
	got      received // the newest Update put in box (for a refusal to amend), and the deliveries' count
}

// current is the session's ID at the owner now, and whether it is
// between owners.
func (s *localSession) current() (id string, resuming bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id, s.resuming
}

var _ table.RoomHandle = (*Handle)(nil)

// Dial finds room code's owner through nc and returns a handle on it;
// games are what this node can decode. A room nobody serves is
// table.ErrClosed.
func Dial(ctx context.Context, nc *nats.Conn, code string, games game.Registry, opts Options) (*Handle, error) {
	h := &Handle{nc: nc, code: code, opts: opts.withDefaults(), sessions: map[*table.Mailbox]*localSession{}}
	var r reply
	if err := h.findOwner(ctx, &r); err != nil {
		return nil, err
	}
	e, ok := games.Lookup(r.Summary.Game)
	if !ok {
		return nil, &game.Error{Msg: game.M("table.err.closed"), Err: table.ErrClosed}
	}
	vc, ok := e.Game.(game.ViewCodec)
	if !ok {
		return nil, table.ErrClosed
	}
	h.game, h.codec, h.summary = e.Game, vc, *r.Summary
	return h, nil
}

// findOwner asks for the room's summary. An owner that has just started
// serving may not be known yet to every node (interest travels between
// servers in a few milliseconds), so no answer is tried again for a
// moment before it means nobody serves the room.
func (h *Handle) findOwner(ctx context.Context, r *reply) error {
	deadline := time.Now().Add(time.Second)
	for {
		err := h.call(ctx, opSummary, request{}, r)
		if !errors.Is(err, table.ErrClosed) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Code is the room's code.
func (h *Handle) Code() string { return h.code }

// Summary is the room as the owner last described it (with the join's
// answer and every Update since).
func (h *Handle) Summary() table.Summary {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.summary
}

// Join subscribes a fresh, unguessable session subject, then asks the
// owner to seat the player; box receives that subject's Updates.
func (h *Handle) Join(ctx context.Context, p table.Player, box *table.Mailbox, watch bool) (game.Seat, error) {
	s := &localSession{p: p, watch: watch, box: box, stop: make(chan struct{}), lost: make(chan struct{}, 1),
		check: make(chan struct{}, 1)}
	var r reply
	if err := h.seat(ctx, s, &r); err != nil {
		return game.Spectator, err
	}
	h.mu.Lock()
	if old := h.sessions[box]; old != nil {
		h.end(old, table.Open)
	}
	h.sessions[box] = s
	if r.Summary != nil {
		h.summary = *r.Summary
	}
	h.mu.Unlock()
	go h.keepalive(s)
	return r.Seat, nil
}

// seat subscribes a fresh session subject and asks the owner to seat s's
// player with it; s.got starts over, as the owner's deliveries do.
func (h *Handle) seat(ctx context.Context, s *localSession, r *reply) error {
	id := newSessionID()
	s.mu.Lock()
	s.got = received{}
	s.mu.Unlock()
	sub, err := h.nc.Subscribe(sessionSubject(id), func(m *nats.Msg) { h.deliver(s, id, m.Data) })
	if err != nil {
		return table.ErrClosed
	}
	if err := h.call(ctx, opJoin, request{Session: id, Player: s.p, Watch: s.watch}, r); err != nil {
		_ = sub.Unsubscribe() // fails only with the connection, which ends the subscription
		return err
	}
	s.mu.Lock()
	s.id, s.sub, s.resuming = id, sub, false
	s.mu.Unlock()
	return nil
}

// Leave, Detach and StepAway tell the owner and end the session here.
func (h *Handle) Leave(box *table.Mailbox) error    { return h.part(box, opLeave) }
func (h *Handle) Detach(box *table.Mailbox) error   { return h.part(box, opDetach) }
func (h *Handle) StepAway(box *table.Mailbox) error { return h.part(box, opStepAway) }

func (h *Handle) part(box *table.Mailbox, op string) error {
	h.mu.Lock()
	s := h.sessions[box]
	if s != nil {
		delete(h.sessions, box)
	}
	h.mu.Unlock()
	if s == nil {
		return nil
	}
	id, _ := s.current()
	err := h.send(op, request{Session: id})
	h.end(s, table.Open)
	return err
}

// Act sends a move without waiting: like a local Act, a refusal comes back
// as the seat's notice.
func (h *Handle) Act(box *table.Mailbox, seq int, a game.Action) error {
	id, b, err := h.action(box, a)
	if err != nil {
		return err
	}
	return h.send(opAct, request{Session: id, Seq: seq, Action: b})
}

// ActNow waits for the move's outcome, as a local ActNow does.
func (h *Handle) ActNow(ctx context.Context, box *table.Mailbox, seq int, a game.Action) error {
	id, b, err := h.action(box, a)
	if err != nil {
		return err
	}
	return h.call(ctx, opActNow, request{Session: id, Seq: seq, Action: b}, nil)
}

func (h *Handle) action(box *table.Mailbox, a game.Action) (string, []byte, error) {
	id, err := h.sessionID(box)
	if err != nil {
		return "", nil, err
	}
	b, err := h.game.EncodeAction(a)
	return id, b, err
}

// Say sends a chat line without waiting.
func (h *Handle) Say(box *table.Mailbox, text string) error {
	return h.sendAs(box, opSay, request{Text: text})
}

// Pick sends the seat's choice before the game without waiting.
func (h *Handle) Pick(box *table.Mailbox, id string) error {
	return h.sendAs(box, opPick, request{Text: id})
}

// NameFirst sends the host's choice of who begins without waiting.
func (h *Handle) NameFirst(box *table.Mailbox, seat game.Seat) error {
	return h.sendAs(box, opNameFirst, request{Seat: seat})
}

// Start begins the game and waits for the answer.
func (h *Handle) Start(ctx context.Context, box *table.Mailbox) error {
	return h.callAs(ctx, box, opStart, request{})
}

// SetBot seats or clears a bot and waits for the answer.
func (h *Handle) SetBot(ctx context.Context, box *table.Mailbox, seat game.Seat, level string) error {
	return h.callAs(ctx, box, opSetBot, request{Seat: seat, Level: level})
}

// Remove takes a player out of the waiting room (the host) and waits for
// the answer.
func (h *Handle) Remove(ctx context.Context, box *table.Mailbox, seat game.Seat) error {
	return h.callAs(ctx, box, opRemove, request{Seat: seat})
}

func (h *Handle) session(box *table.Mailbox) *localSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[box]
}

// sessionID is the ID box's session acts under at the owner now; between
// owners (resume) a call is table.ErrBusy: the player tries again once
// the table is back, rather than the call going to nobody.
func (h *Handle) sessionID(box *table.Mailbox) (string, error) {
	s := h.session(box)
	if s == nil {
		return "", table.ErrNotSeated
	}
	id, resuming := s.current()
	if resuming {
		return "", table.ErrBusy
	}
	return id, nil
}

func (h *Handle) sendAs(box *table.Mailbox, op string, req request) error {
	id, err := h.sessionID(box)
	if err != nil {
		return err
	}
	req.Session = id
	return h.send(op, req)
}

func (h *Handle) callAs(ctx context.Context, box *table.Mailbox, op string, req request) error {
	id, err := h.sessionID(box)
	if err != nil {
		return err
	}
	req.Session = id
	return h.call(ctx, op, req, nil)
}

// send publishes a request nobody waits on.
func (h *Handle) send(op string, req request) error {
	b, _ := json.Marshal(req)
	if err := h.nc.Publish(roomSubject(h.code, op), b); err != nil {
		return table.ErrClosed
	}
	return nil
}

// call sends a request and waits for the owner's answer (or ctx, or the
// call timeout). No owner is ErrClosed; no answer in time is ErrBusy.
func (h *Handle) call(ctx context.Context, op string, req request, into *reply) error {
	ctx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
	defer cancel()
	b, _ := json.Marshal(req)
	m, err := h.nc.RequestWithContext(ctx, roomSubject(h.code, op), b)
	switch {
	case errors.Is(err, nats.ErrNoResponders), errors.Is(err, nats.ErrConnectionClosed):
		return table.ErrClosed
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		if ctx.Err() != nil && context.Cause(ctx) != context.DeadlineExceeded {
			return ctx.Err()
		}
		return table.ErrBusy
	case err != nil:
		return err
	}
	var r reply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return err
	}
	if into != nil {
		*into = r
	}
	return table.FromWire(r.Err)
}

// deliver runs on the session subscription's goroutine: it decodes what
// the owner published and puts it in the session's mailbox.
func (h *Handle) deliver(s *localSession, id string, data []byte) {
	var d delivery
	if err := json.Unmarshal(data, &d); err != nil {
		h.opts.Logger.Error("remote: a delivery that does not decode", "room", h.code, "err", err)
		return
	}
	if d.Summary != nil {
		h.mu.Lock()
		h.summary = *d.Summary
		h.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resuming && s.id != id {
		// The new owner seated the session (it sends nothing before):
		// its calls go there from now on, even before the join's answer.
		s.id, s.resuming = id, false
	}
	switch {
	case d.Refused != nil:
		if !s.got.synced {
			return // nothing on screen yet to say it on
		}
		u := s.got.last
		u.Notice = d.Refused.Msg
		s.box.Put(u)
	case d.Update != nil:
		w, err := table.DecodeUpdate(h.codec, d.Update)
		if err != nil {
			h.opts.Logger.Error("remote: an update that does not decode", "room", h.code, "err", err)
			return
		}
		shown := s.got.last
		u, ok := s.got.apply(d, w)
		if !ok {
			if err := h.send(opResync, request{Session: s.id}); err != nil {
				// The keepalive finds the owner lost and ends the session.
				h.opts.Logger.Warn("remote: a resync that cannot be asked for", "room", h.code, "err", err)
			}
			return
		}
		if u.Closed == table.Restarting || u.Closed == table.Moved {
			// The table's node stopped or lost it, not this one: the
			// session stays, and the keepalive seats it again wherever
			// the table runs next (resume), saying so over the last view:
			// the closing Update is not it.
			s.got.last = shown
			select {
			case s.lost <- struct{}{}:
			default:
			}
			return
		}
		s.box.Put(u)
		if u.Closed != table.Open {
			go h.forget(s)
		}
	}
}

// forget ends a session the owner closed.
func (h *Handle) forget(s *localSession) {
	h.mu.Lock()
	if h.sessions[s.box] == s {
		delete(h.sessions, s.box)
	}
	h.mu.Unlock()
	h.end(s, table.Open)
}

// end stops a session's subscription and keepalive; a reason other than
// Open is put in its mailbox as the table closing.
func (h *Handle) end(s *localSession, reason table.CloseReason) {
	s.once.Do(func() {
		close(s.stop)
		s.mu.Lock()
		sub := s.sub
		s.mu.Unlock()
		_ = sub.Unsubscribe() // fails only with the connection, which ends the subscription
		if reason != table.Open {
			s.box.Put(table.Update{Room: h.code, Closed: reason})
		}
	})
}

// keepalive asks after the session every Keepalive. An owner that is gone
// (no responders: its node or its NATS died, or it stopped serving the
// room), that no longer knows the session, that does not answer three
// times in a row, or that said the table left it, is replaced: the
// session is seated again wherever the table runs next (resume), the
// player kept at the table. Only when no node runs it within
// Options.ResumeWithin is the table closed for the session (table.Moved:
// the seat is saved, and joining again puts the player back).
func (h *Handle) keepalive(s *localSession) {
	tick := time.NewTicker(h.opts.Keepalive)
	defer tick.Stop()
	watching(h.nc, s.check, true)
	defer watching(h.nc, s.check, false)
	ping := func() error {
		id, _ := s.current()
		ctx, cancel := context.WithTimeout(context.Background(), h.opts.Keepalive)
		defer cancel()
		return h.call(ctx, opPing, request{Session: id}, nil)
	}
	missed := 0
	for {
		var err error
		select {
		case <-s.stop:
			return
		case <-s.lost:
			err = table.ErrClosed
		case <-s.check:
			tick.Reset(h.opts.Keepalive)
			err = ping()
		case <-tick.C:
			err = ping()
		}
		switch {
		case err == nil:
			missed = 0
			continue
		case errors.Is(err, table.ErrBusy):
			if missed++; missed < 3 {
				continue // a busy machine, a slow link: not yet a lost owner
			}
		}
		missed = 0
		h.opts.Logger.Info("remote: the table's owner is lost; seating the session wherever it runs next", "room", h.code, "err", err)
		if h.resume(s) {
			continue
		}
		h.mu.Lock()
		if h.sessions[s.box] == s {
			delete(h.sessions, s.box)
		}
		h.mu.Unlock()
		h.end(s, table.Moved)
		return
	}
}

// checks are the sessions' CheckOwners channels, by connection (a test
// runs several nodes in one process).
var checks = struct {
	sync.Mutex
	by map[*nats.Conn]map[chan struct{}]bool
}{by: map[*nats.Conn]map[chan struct{}]bool{}}

func watching(nc *nats.Conn, check chan struct{}, on bool) {
	checks.Lock()
	defer checks.Unlock()
	switch {
	case on && checks.by[nc] == nil:
		checks.by[nc] = map[chan struct{}]bool{check: true}
	case on:
		checks.by[nc][check] = true
	default:
		delete(checks.by[nc], check)
		if len(checks.by[nc]) == 0 {
			delete(checks.by, nc)
		}
	}
}

// CheckOwners has every session at a table on another node through nc
// ask after the table's owner now, rather than at its next keepalive: a
// node was lost, and a session whose table ran there is seated again
// wherever it runs next as soon as it can be. One ping per session.
func CheckOwners(nc *nats.Conn) {
	checks.Lock()
	defer checks.Unlock()
	for c := range checks.by[nc] {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// resumeEvery is how often resume asks whether a node runs the table.
const resumeEvery = 100 * time.Millisecond

// resume tells the session the table moved, one moment, and seats it
// again at the node that runs the table next (its seat is kept there:
// the new owner replays the log). It reports whether it did within
// Options.ResumeWithin; a refusal other than nobody serving yet, or
// busy, ends it at once.
func (h *Handle) resume(s *localSession) bool {
	s.mu.Lock()
	s.resuming = true
	old := s.sub
	if s.got.synced {
		u := s.got.last
		key := "table.moving"
		if s.watch || u.Seat == game.Spectator {
			key = "table.moving_watch" // no seat to keep
		}
		u.Notice, u.Info = game.Msg{}, game.M(key, game.Text("Code", h.code))
		s.box.Put(u)
	}
	s.mu.Unlock()
	_ = old.Unsubscribe() // the old owner's last words go nowhere
	began := time.Now()
	for {
		select {
		case <-s.stop:
			return true // ended meanwhile: nothing to close
		case <-time.After(resumeEvery):
		}
		ctx, cancel := context.WithTimeout(context.Background(), h.opts.Keepalive)
		var r reply
		err := h.seat(ctx, s, &r)
		cancel()
		switch {
		case err == nil:
			h.mu.Lock()
			if r.Summary != nil {
				h.summary = *r.Summary
			}
			h.mu.Unlock()
			h.opts.Logger.Info("remote: the session sits at the table again", "room", h.code, "after", time.Since(began))
			select {
			case <-s.lost: // the old owner's last word, come meanwhile: not this one's
			default:
			}
			return true
		case !errors.Is(err, table.ErrClosed) && !errors.Is(err, table.ErrBusy):
			h.opts.Logger.Info("remote: the table's new owner refused the session", "room", h.code, "err", err)
			return false
		case h.nc.IsClosed(), time.Since(began) > h.opts.ResumeWithin:
			return false // this node's own connection went, or no node took the table
		}
	}
}

// Served reports whether some node answers for room code now: its actor
// runs there, whether or not its lease is valid at this moment (a lease
// suspended while the cluster elects a leader). A node that died answers
// nothing.
func Served(ctx context.Context, nc *nats.Conn, code string) bool {
	b, _ := json.Marshal(request{})
	m, err := nc.RequestWithContext(ctx, roomSubject(code, opSummary), b)
	return err == nil && m != nil
}
