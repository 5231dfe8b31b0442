package node

// Draining a node of a cluster, for a rolling upgrade: its tables go to
// the other nodes one by one, each in well under a second, its players
// are told the ssh line of a node that has their table, and it stops.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/cluster/lease"
	"github.com/bivouac-ssh/bivouac/cluster/remote"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// drainSubject is where node answers the drains of other nodes: whether
// it takes tables, and "take this one now".
func drainSubject(node string) string { return "bivouac.drain." + node }

// drainRequest asks a node to take Room over at once (its lease was just
// released for it); no Room asks only whether the node takes tables.
type drainRequest struct {
	Room string `json:"room,omitempty"`
}

type drainReply struct {
	Err string `json:"err,omitempty"`
}

// Handover is one table a drain handed to another node.
type Handover struct {
	Room string
	Node string        // the node that runs it now ("": none did within handoverWithin)
	Join string        // that node's ssh line
	Took time.Duration // from its close here to its actor serving there
	Err  error         // why no node took it in time; a node's lapse watch still will
}

// DrainReport is what a drain did.
type DrainReport struct {
	Tables []Handover
	Told   int // sessions ended with the ssh line of another node
}

// drainState is a node's drain: once begun, sessions are refused with
// another node's ssh line and no table is taken or made here.
type drainState struct {
	mu      sync.Mutex
	active  bool
	refuse  string        // the ssh line new sessions are sent to
	stopped chan struct{} // closed once a drain has shut the server down
}

func (d *drainState) begin() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.active {
		return false
	}
	d.active = true
	return true
}

func (d *drainState) abort() {
	d.mu.Lock()
	d.active, d.refuse = false, ""
	d.mu.Unlock()
}

func (d *drainState) draining() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.active
}

func (d *drainState) refusal() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.refuse
}

func (d *drainState) done() chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped == nil {
		d.stopped = make(chan struct{})
	}
	return d.stopped
}

// Drained is closed once a drain has stopped the server.
func (c *Node) Drained() <-chan struct{} { return c.drain.done() }

// Draining reports whether a drain has begun.
func (c *Node) Draining() bool { return c.drain.draining() }

// Refusal is the ssh line of another node that new sessions are sent to
// while this one drains ("": it is not draining).
func (c *Node) Refusal() string { return c.drain.refusal() }

// handoverWithin bounds one table's handover: past it the table is left
// to the other nodes' lapse watch, as after a crash.
const handoverWithin = 15 * time.Second

// drainAtOnce is how many tables are handed over at the same time.
const drainAtOnce = 4

// ErrNoMajorityLeft is a drain refused because the nodes left after it
// would be fewer than a majority of the cluster: they could store
// nothing, and every table would stop (DrainOptions.Force drains anyway).
var ErrNoMajorityLeft = game.NewError("op.drain.no_majority")

// ErrDrainUnderWay and ErrNoPeers are drains refused, changing nothing:
// one is already under way, or no other node answers to take the tables.
var (
	ErrDrainUnderWay = game.NewError("op.drain.under_way")
	ErrNoPeers       = game.NewError("op.drain.no_peers")
)

// DrainOptions are how a drain goes.
type DrainOptions struct {
	// Force drains even when the nodes left would be fewer than a
	// majority (`bivouac drain --force`): their tables stop until enough
	// nodes are back.
	Force bool
}

// majorityLeft reports whether alive other nodes still make a majority
// of a cluster of size nodes once this one stops.
func majorityLeft(size, alive int) bool { return alive > size/2 }

// Drain hands each table this node runs to another node of the cluster,
// ends every session here with the ssh line of a node that has the
// player's table (or of any other node), and shuts the server down with
// stop. progress, if not nil, hears of each table as it is handed over
// (or not). From the start, new
// sessions are refused with another node's ssh line (Refusal) and this
// node takes and makes no table. Nothing is lost: every move is in
// JetStream before it is played, and the new owner replays the log.
// Unless o.Force, a drain that would leave fewer than a majority of the
// cluster's nodes alive is refused with ErrNoMajorityLeft, changing
// nothing.
func (c *Node) Drain(ctx context.Context, o DrainOptions, progress func(Handover), stop func(context.Context) error) (DrainReport, error) {
	var rep DrainReport
	if !c.drain.begin() {
		return rep, ErrDrainUnderWay
	}
	peers := c.livePeers(ctx)
	if len(peers) == 0 {
		c.drain.abort()
		return rep, ErrNoPeers
	}
	if size := c.Size(); !majorityLeft(size, len(peers)) {
		if !o.Force {
			c.drain.abort()
			return rep, game.Refuse(ErrNoMajorityLeft, game.M("op.drain.no_majority_left",
				game.Count(len(peers)), game.Num("Nodes", size), game.Num("Needed", size/2+1)))
		}
		c.log.Warn("draining with --force: the nodes left are fewer than a majority, and their tables stop until enough are back", "left", len(peers), "nodes", size)
	}
	c.drain.mu.Lock()
	c.drain.refuse = peers[0].join
	c.drain.mu.Unlock()
	c.StopTakingOver() // nor can a room be made here now: claims end with c.ctx
	c.withdraw()
	c.log.Info("draining: handing this node's tables to the others", "tables", c.o.Hub.Running(), "peers", len(peers))

	// A finished game's room is not taken over by anyone: it stays until
	// the shutdown closes it, its players reading the end.
	rooms := slices.DeleteFunc(c.o.Hub.Locals(), func(r *table.Room) bool {
		st := r.Summary().Status
		return st != table.StatusWaiting && st != table.StatusPlaying
	})
	seatedAt := map[string][]string{} // player → the rooms of theirs handed over
	for _, r := range rooms {
		for _, p := range r.Summary().Players {
			seatedAt[p] = append(seatedAt[p], r.Code())
		}
	}
	rep.Tables = make([]Handover, len(rooms))
	slots := make(chan struct{}, drainAtOnce)
	var wg sync.WaitGroup
	for i, r := range rooms {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			h := c.handOver(ctx, r, peers)
			rep.Tables[i] = h
			c.logHandover(h, progress)
		})
	}
	wg.Wait()

	handed := map[string]Handover{}
	for _, h := range rep.Tables {
		handed[h.Room] = h
	}
	for _, ls := range c.o.Live.List(nil) {
		ls.Send(tui.Control{End: drainedWords(seatedAt[ls.Who.ID], handed, peers[0].join)})
		rep.Told++
	}
	// Each session's goodbye first: the shutdown's own would say only that
	// the server restarts.
	for end := time.Now().Add(3 * time.Second); len(c.o.Live.List(nil)) > 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	err := stop(ctx)
	close(c.drain.done())
	return rep, err
}

// drainedWords is what a session of a player seated at rooms hears as
// the node drains: where each of their tables runs now (a player with
// several hears about each), or, with none handed over, another node's
// ssh line, other.
func drainedWords(rooms []string, handed map[string]Handover, other string) game.Msg {
	var at []game.Msg
	var last Handover
	for _, code := range rooms {
		if h, ok := handed[code]; ok && h.Join != "" {
			last = h
			at = append(at, game.M("ssh.drain.table_at", game.Text("Code", h.Room), game.Text("Join", h.Join)))
		}
	}
	switch len(at) {
	case 0:
		return game.M("ssh.drain.other_node", game.Text("Join", other))
	case 1:
		return game.M("ssh.drain.table", game.Text("Code", last.Room), game.Text("Join", last.Join))
	}
	return game.M("ssh.drain.tables", game.List("Tables", at...))
}

// logHandover says where a table went, in the log and to progress.
func (c *Node) logHandover(h Handover, progress func(Handover)) {
	if h.Err != nil {
		c.log.Warn("a table was not handed over; another node takes it when its lease lapses", "room", h.Room, "err", h.Err)
	} else {
		c.log.Info("table handed over", "room", h.Room, "node", h.Node, "took", h.Took)
	}
	if progress != nil {
		progress(h)
	}
}

// peer is another node that answered a drain: its ID and ssh line.
type peer struct{ node, join string }

// livePeers are the other nodes that take tables now, by node ID.
func (c *Node) livePeers(ctx context.Context) []peer {
	const within = 2 * time.Second // each look: a busy node answers late, not never
	keys, cancel := context.WithTimeout(ctx, within)
	nodes, err := c.store.Nodes(keys)
	cancel()
	if err != nil {
		return nil
	}
	var out []peer
	for _, n := range nodes {
		if n == c.cfg.Node {
			continue
		}
		ask, cancel := context.WithTimeout(ctx, within)
		join, err := c.store.Node(ask, n)
		if err == nil {
			err = c.askDrain(ask, n, drainRequest{})
		}
		cancel()
		if err == nil {
			out = append(out, peer{node: n, join: join})
		}
	}
	return out
}

// withdraw takes this node out of the node directory: no player is sent
// here, and no room waits for this node as its first adopter.
func (c *Node) withdraw() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.store.DeleteNode(ctx, c.cfg.Node); err != nil {
		c.log.Warn("could not take this node out of the node directory", "err", err)
	}
}

// askDrain sends req to node and waits for its answer.
func (c *Node) askDrain(ctx context.Context, node string, req drainRequest) error {
	b, _ := json.Marshal(req)
	m, err := c.nc.RequestWithContext(ctx, drainSubject(node), b)
	if err != nil {
		return err
	}
	var rep drainReply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return err
	}
	if rep.Err != "" {
		return errors.New(rep.Err)
	}
	return nil
}

// handOver closes room here (its lease is released as it stops), asks a
// peer to take it at once, and waits until some other node serves it.
// The peer asked first is the room's first adopter if that one answered
// the drain, so the other nodes' lapse watches, which give the first
// adopter half a TTL, do not race it.
func (c *Node) handOver(ctx context.Context, room *table.Room, peers []peer) Handover {
	code := room.Code()
	h := Handover{Room: code}
	began := time.Now()
	room.Close(table.Moved)
	select {
	case <-room.Done():
	case <-time.After(5 * time.Second):
	}
	ids := make([]string, len(peers))
	for i, p := range peers {
		ids[i] = p.node
	}
	first := adopter(code, c.knownNodes(), "")
	if !slices.Contains(ids, first) {
		first = adopter(code, ids, "")
	}
	order := append([]string{first}, slices.DeleteFunc(slices.Clone(ids), func(n string) bool { return n == first })...)
	// Asked on the side: another node's lapse watch may take the room
	// first, and then it serves before the asked one answers.
	asking, served := context.WithCancel(ctx)
	defer served()
	asked := make(chan error, 1)
	go func() {
		var err error
		for _, n := range order {
			ask, cancel := context.WithTimeout(asking, c.cfg.LeaseTTL+2*time.Second)
			err = c.askDrain(ask, n, drainRequest{Room: code})
			cancel()
			if err == nil || asking.Err() != nil {
				break
			}
			c.log.Warn("a node did not take a drained table", "room", code, "node", n, "err", err)
		}
		asked <- err
	}()
	deadline := began.Add(handoverWithin)
	for {
		if o, err := c.peek(ctx, code); err == nil && o.Node != "" && o.Node != c.cfg.Node {
			look, cancel := context.WithTimeout(ctx, AskWithin)
			ok := remote.Served(look, c.nc, code)
			cancel()
			if ok {
				h.Node, h.Took = o.Node, time.Since(began)
				break
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			h.Err = fmt.Errorf("no other node served it within %v", handoverWithin)
			select {
			case err := <-asked:
				h.Err = errors.Join(h.Err, err)
			default:
			}
			return h
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, p := range peers {
		if p.node == h.Node {
			h.Join = p.join
		}
	}
	return h
}

// peek reads who holds code's lease, in one short try; unlike owner it
// works once this node has stopped taking rooms over.
func (c *Node) peek(ctx context.Context, code string) (lease.Owner, error) {
	ctx, cancel := context.WithTimeout(ctx, AskWithin)
	defer cancel()
	return c.leases.Owner(ctx, code)
}

// serveDrains answers the drains of other nodes until the connection closes.
func (c *Node) serveDrains() error {
	_, err := c.nc.Subscribe(drainSubject(c.cfg.Node), func(m *nats.Msg) { go c.answerDrain(m) })
	return err
}

// answerDrain answers one request of a draining node.
func (c *Node) answerDrain(m *nats.Msg) {
	var req drainRequest
	err := json.Unmarshal(m.Data, &req)
	switch {
	case err != nil:
	case c.drain.draining() || c.ctx.Err() != nil:
		err = errors.New("this node is stopping too")
	case req.Room != "":
		err = c.adoptNow(req.Room)
	}
	var rep drainReply
	if err != nil {
		rep.Err = err.Error()
	}
	b, _ := json.Marshal(rep)
	_ = m.Respond(b)
}

// adoptNow takes over a room a draining node has just let go: no wait for
// a first adopter, and its timed step resumes with the time it had left.
func (c *Node) adoptNow(code string) error {
	code = table.NormalizeCode(code)
	// Even when the lapse watch is at it already: it may be giving another
	// node, its first adopter, half a TTL to come first. Whichever claims
	// first runs the room; the other's claim fails and it lets it be.
	c.mu.Lock()
	mine := !c.adopting[code]
	if c.adopting == nil {
		c.adopting = map[string]bool{}
	}
	c.adopting[code] = true
	c.mu.Unlock()
	if mine {
		defer func() {
			c.mu.Lock()
			delete(c.adopting, code)
			c.mu.Unlock()
		}()
	}
	if c.o.Hub.Local(code) != nil {
		return nil
	}
	// An entry already: another node's lapse watch claimed the room (or its
	// release did not get through, and it lapses in a TTL): Claim would
	// wait that TTL out, and the draining node sees who serves it anyway.
	if _, err := c.peek(c.ctx, code); !errors.Is(err, lease.ErrNoOwner) {
		return err
	}
	ctx, cancel := context.WithTimeout(c.ctx, 2*AskWithin) // a Get and a Create; no wait
	held, err := c.leases.Claim(ctx, code)
	cancel()
	if errors.Is(err, lease.ErrHeld) || errors.Is(err, lease.ErrAlreadyHeld) {
		c.log.Info("a drained table was taken by another claim", "room", code, "err", err)
		return nil // taken: the draining node sees by whom
	}
	if err != nil {
		return err
	}
	if err := c.restore(code, held, time.Now()); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = held.Release(ctx)
		cancel()
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}
