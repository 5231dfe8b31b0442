// Package node makes a server one node of a cluster on NATS JetStream:
// the embedded NATS server, the JetStream store, room leases, the shared
// lobby's directory of every node's tables, the takeover (adoption) of
// the tables of a node that died, the handover of this node's tables to
// the others before it stops (drain, drain.go), and the words for a
// cluster that cannot serve fully now (degraded, degraded.go).
package node

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/cluster/adminbus"
	"github.com/bivouac-ssh/bivouac/cluster/lease"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/cluster/playerbus"
	"github.com/bivouac-ssh/bivouac/cluster/remote"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/jetstream"
	"github.com/bivouac-ssh/bivouac/server/live"
	"github.com/bivouac-ssh/bivouac/table"
)

// Config makes the server one node of a cluster on NATS JetStream
// (server.Config.Cluster; nil: a single node on bbolt).
type Config struct {
	Name string // the cluster's name, the same on every node
	Node string // this node's ID: unique in the cluster, the same across restarts
	// Peers are the other nodes' route addresses (host:port).
	Peers []string
	// NATSAddr is where this process's own NATS clients connect
	// (default natsnode.DefaultClientAddr, loopback); ClusterAddr is where
	// peers' routes connect (default natsnode.DefaultClusterAddr).
	NATSAddr, ClusterAddr string
	TLS                   *natsnode.TLSFiles // nil: no TLS between nodes
	// InsecureRoutes accepts routes without TLS to or from an address that
	// is not loopback (`--insecure-routes`): the cluster's password and
	// every hand then cross the network in clear. Without it such a node
	// does not start; with it, it warns once at start.
	InsecureRoutes bool
	// LeaseTTL is how long a room's lease lives unrenewed: the rooms of a
	// node that died without its connections closing (a machine off, a
	// network cut) run elsewhere about this long after (a killed
	// process's are seized at once: Lost). The same on every node.
	// Default DefaultLeaseTTL.
	LeaseTTL time.Duration
	// ReadyWithin bounds the wait at start for the cluster to form and its
	// streams to answer (default 2 minutes: the other nodes may be starting).
	ReadyWithin time.Duration

	// SweepOnly, for tests, hears of no lapse from the lease watch: rooms
	// are taken over by the sweep alone, as when the watch falls silent.
	SweepOnly bool
}

// DefaultLeaseTTL keeps the tables of a node that died unseen (see
// Config.LeaseTTL) down for about 4 s: long enough that a loaded node's
// renewals (every TTL/3) are not missed, short enough that players
// barely notice.
const DefaultLeaseTTL = 4 * time.Second

// Options are what a node serves the cluster with: this server's tables
// and sessions (Run).
type Options struct {
	Hub   *table.Hub
	Games game.Registry
	// Room is the configuration every room taken over starts from (the
	// server's tui.App.Room).
	Room *table.RoomConfig
	// Live are this node's sessions: a drain sends each to another node.
	Live *live.Sessions
	// Admin does this node's part of an admin's command (admin.Here.Answer).
	Admin func(adminbus.Request) adminbus.Reply
	// Degraded says the cluster cannot serve fully now; TookOver counts
	// a table taken over (metrics).
	Degraded func() bool
	TookOver func()
}

// Node is the server's side of a cluster.
type Node struct {
	cfg    Config
	log    *slog.Logger
	o      Options
	drain  drainState // a rolling upgrade's drain of this node (drain.go)
	nats   *natsnode.Node
	nc     *nats.Conn
	store  *jetstream.Store
	leases *lease.Manager
	admin  *nats.Subscription // this node's part of admin commands (cluster/adminbus)
	// players carries what is for one player to the nodes of their sessions
	// (cluster/playerbus): notices, friends' presence.
	players *playerbus.Bus

	ctx    context.Context // ends when the node stops taking rooms over
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	directory map[string]table.Summary // every unfinished room in the cluster, by code
	adopting  map[string]bool          // rooms this node is claiming now
	quick     *jetstream.Store         // store, each call bounded to AskWithin: for takeovers
	known     []string                 // the cluster's node IDs (knownNodes)

	clearRoutes []string // routes off loopback without TLS, accepted by --insecure-routes
}

// RoutesInClear are the routes that leave the machine without TLS, which
// the operator accepted with --insecure-routes (nil: none).
func (c *Node) RoutesInClear() []string { return c.clearRoutes }

// ErrRoutesInClear: a node whose routes would leave the machine without
// TLS, which the operator did not accept (--insecure-routes).
var ErrRoutesInClear = natsnode.ErrRoutesInClear

// checkRoutes refuses a node whose routes would leave the machine without
// TLS, unless the operator accepted it; then it warns, once, at start.
func checkRoutes(cfg natsnode.Config, log *slog.Logger) error {
	clear := cfg.RoutesInClear()
	switch {
	case len(clear) == 0:
		return nil
	case !cfg.InsecureRoutes:
		return fmt.Errorf("%w (%s): give --tls-cert, --tls-key and --tls-ca, or --insecure-routes to accept this on a network you trust",
			natsnode.ErrRoutesInClear, strings.Join(clear, ", "))
	}
	log.Warn("cluster routes without TLS (--insecure-routes): the cluster password and every hand cross the network in clear", "routes", strings.Join(clear, ", "))
	return nil
}

// Start starts the node's NATS server, waits for JetStream, and
// opens the store, the lease bucket and the node directory.
func Start(cfg Config, dataDir string, log *slog.Logger) (*Node, error) {
	if cfg.Name == "" || cfg.Node == "" {
		return nil, errors.New("a cluster node needs a cluster name and a node ID")
	}
	if cfg.LeaseTTL == 0 {
		cfg.LeaseTTL = DefaultLeaseTTL
	}
	if cfg.ReadyWithin == 0 {
		cfg.ReadyWithin = 2 * time.Minute
	}
	ncfg := natsnode.Config{DataDir: dataDir, Name: cfg.Node, Cluster: cfg.Name,
		ClientAddr: cfg.NATSAddr, ClusterAddr: cfg.ClusterAddr, Peers: cfg.Peers, TLS: cfg.TLS,
		InsecureRoutes: cfg.InsecureRoutes}
	if err := checkRoutes(ncfg, log); err != nil {
		return nil, err
	}
	n, err := natsnode.Start(ncfg)
	if err != nil {
		return nil, err
	}
	c := &Node{cfg: cfg, log: log, nats: n, directory: map[string]table.Summary{}, clearRoutes: ncfg.RoutesInClear()}
	fail := func(err error) (*Node, error) { c.Close(); return nil, err }
	log.Info("waiting for the cluster's JetStream", "node", cfg.Node, "peers", len(cfg.Peers))
	if err := n.Ready(cfg.ReadyWithin); err != nil {
		return fail(err)
	}
	if c.nc, err = n.Connect(); err != nil {
		return fail(err)
	}
	c.players = playerbus.New(c.nc, cfg.Node)
	replicas := min(3, n.ClusterSize())
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ReadyWithin)
	defer cancel()
	if c.store, err = jetstream.Open(ctx, c.nc, jetstream.Options{Replicas: replicas}); err != nil {
		return fail(err)
	}
	c.quick = c.store.WithTimeout(AskWithin)
	j, err := js.New(c.nc)
	if err != nil {
		return fail(err)
	}
	var kv js.KeyValue
	if err := jetstream.Patiently(ctx, func(ctx context.Context) (err error) {
		kv, err = lease.OpenBucket(ctx, j, replicas)
		return err
	}); err != nil {
		return fail(fmt.Errorf("lease bucket: %w", err))
	}
	if c.leases, err = lease.NewManager(kv, cfg.Node, lease.Options{TTL: cfg.LeaseTTL}); err != nil {
		return fail(err)
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

// Run starts the lobby's directory watch and the takeover of rooms
// nobody runs, and answers the other nodes' drains and admin commands.
// Either watch is started again if it fails (a stream's leader died with
// its node, say).
func (c *Node) Run(o Options) error {
	c.o = o
	if err := c.serveDrains(); err != nil {
		return err
	}
	var err error
	if c.admin, err = adminbus.Serve(c.nc, c.cfg.Node, o.Admin); err != nil {
		return err
	}
	c.wg.Go(func() { c.again("room directory watch", c.watchDirectory) })
	c.wg.Go(func() { c.again("lease watch", c.takeOver) })
	c.wg.Go(func() { c.again("route watch", c.watchLost) })
	return nil
}

// watchLost takes a node's tables over the moment its routes close (it
// died: natsnode.WatchLost), rather than a lease TTL later.
func (c *Node) watchLost() error {
	for lost := range c.nats.WatchLost(c.ctx, lostEvery) {
		c.Lost(lost)
	}
	return errors.New("the watch stopped")
}

// Lost takes node's tables over now, its routes having closed: it
// stands for election in the groups node led, which answer nothing until
// one is held (at once, and again a moment later in those still without
// a leader); has this node's sessions at node's tables ask after them
// now; and seizes the tables this node is first adopter of (seize).
// Called on a live node (a route cut, or a test), it costs needless
// work and moved tables, never a fork (lease.Manager.Seize).
func (c *Node) Lost(node string) {
	stood := c.nats.StandFor(node, false)
	c.wg.Go(func() {
		select {
		case <-c.ctx.Done():
		case <-time.After(standAgain):
			if n := c.nats.StandFor(node, true); n > 0 {
				c.log.Info("groups of a lost node still without a leader: stood for them", "lost", node, "elections", n)
			}
		}
	})
	remote.CheckOwners(c.nc) // sessions here at its tables: seated again as soon as they run elsewhere
	c.mu.Lock()
	codes := slices.Collect(maps.Keys(c.directory))
	for _, p := range c.nats.Routed() {
		// Alive, whether or not it had announced itself at the last
		// read of the node list: its share of first adopters.
		if !slices.Contains(c.known, p) {
			c.known = append(c.known, p)
		}
	}
	c.mu.Unlock()
	c.log.Info("a node's routes closed: taking its tables over", "lost", node, "elections", stood, "rooms", len(codes))
	for _, code := range codes {
		if c.o.Hub.Local(code) == nil {
			c.goAdopt(code, 0, node)
		}
	}
}

// lostEvery is how often watchLost looks at the routes: a count, in the
// process. standAgain is when it stands in the lost node's groups that
// still have no leader, whoever was chosen to (natsnode.StandFor): an
// election started by the first round takes 0.1–0.8 s.
const (
	lostEvery  = 100 * time.Millisecond
	standAgain = time.Second
)

// again runs watch until ctx ends, starting it again after it fails.
func (c *Node) again(what string, watch func() error) {
	for {
		err := watch()
		if c.ctx.Err() != nil {
			return
		}
		c.log.Warn(what+" ended; starting it again", "err", err)
		select {
		case <-c.ctx.Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// takeOver takes over the unfinished rooms nobody holds, then every room
// whose lease lapses, until the watch ends.
func (c *Node) takeOver() error {
	lapsed, err := c.leases.WatchLapsed(c.ctx)
	if err != nil {
		return err
	}
	if c.cfg.SweepOnly {
		lapsed = make(chan lease.Lapse) // silent, as a watch whose stream leader died
	}
	unfinished, err := c.store.Rooms(persistence.StatusWaiting, persistence.StatusPlaying)
	if err != nil {
		return err
	}
	c.learnNodes()
	for _, r := range unfinished {
		// A room with a lease entry is someone's, or will be reported
		// by the watch once that entry lapses. No answer: the sweep
		// looks again.
		_, err := c.owner(r.ID)
		if errors.Is(err, lease.ErrNoOwner) {
			c.goAdopt(r.ID, 0, "")
		}
	}
	// The watch is the quick way to hear of a lapse; a sweep of the
	// other nodes' rooms is the sure one: a KV watch can fall silent when
	// the stream's leader dies with its node, which is just when it is
	// needed (seen with kill -9 of a node in the demo).
	sweep := time.NewTicker(c.cfg.LeaseTTL / 2)
	defer sweep.Stop()
	seen := map[string]uint64{} // room → its lease's revision at the last sweep
	learned := time.Now()
	for {
		select {
		case <-c.ctx.Done():
			return c.ctx.Err()
		case l, ok := <-lapsed:
			if !ok {
				return errors.New("the watch stopped")
			}
			c.goAdopt(l.Room, l.Revision, "")
		case now := <-sweep.C:
			if now.Sub(learned) >= learnEvery {
				c.learnNodes()
				learned = now
			}
			c.sweep(seen)
		}
	}
}

// sweep adopts the other nodes' rooms whose lease has not been renewed
// since the last sweep, or has no entry at all. Claim itself waits out a
// whole TTL of an unchanged entry before it takes a room, so a slow
// sweep can only be late, never early.
func (c *Node) sweep(seen map[string]uint64) {
	c.mu.Lock()
	codes := make([]string, 0, len(c.directory))
	for code := range c.directory {
		codes = append(codes, code)
	}
	c.mu.Unlock()
	now := map[string]uint64{}
	for _, code := range codes {
		if c.o.Hub.Local(code) != nil {
			continue
		}
		o, err := c.owner(code)
		switch {
		case errors.Is(err, lease.ErrNoOwner):
			c.goAdopt(code, 0, "")
		case err != nil:
			// The cluster does not answer (a leader being elected): the
			// next sweep looks again, rather than this one waiting on
			// every room in turn. The rooms seen so far count.
			maps.Copy(seen, now)
			return
		case seen[code] == o.Revision:
			c.goAdopt(code, o.Revision, "")
		default:
			now[code] = o.Revision
		}
	}
	clear(seen)
	maps.Copy(seen, now)
}

// goAdopt adopts code on its own goroutine, unless this node is at it
// already.
func (c *Node) goAdopt(code string, lapsed uint64, lost string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.adopting[code] {
		return
	}
	if c.adopting == nil {
		c.adopting = map[string]bool{}
	}
	c.adopting[code] = true
	c.wg.Go(func() {
		c.adopt(code, lapsed, lost)
		c.mu.Lock()
		delete(c.adopting, code)
		c.mu.Unlock()
	})
}

// adopt claims a room nobody runs, rebuilds it from its log and runs it.
// lapsed is the revision of the lapsed lease entry (0: none); lost, if
// set, is the node whose routes closed, whose rooms are seized at once
// (tryAdopt) rather than when their leases lapse. The rooms of
// a node that died are spread over the others without their asking each
// other: each room has a first adopter (adopter), and the other nodes give
// it half a TTL to take the room first.
//
// Right after a node dies, the cluster may not answer for a few seconds:
// the replicated groups it led elect new leaders (0.1–1 s when this node
// stood for them, Lost; else 3–4.5 s), and a
// request to one of them goes unanswered until then. adopt asks again, in
// short tries, for up to adoptFor, rather than leaving the room to the
// next sweep.
func (c *Node) adopt(code string, lapsed uint64, lost string) {
	began := time.Now()
	for {
		done, err := c.tryAdopt(code, lapsed, lost)
		if done || c.ctx.Err() != nil {
			return
		}
		if time.Since(began) > adoptFor {
			c.log.Warn("could not take a room over; the next sweep tries again", "room", code, "err", err)
			return
		}
		select {
		case <-c.ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// adoptFor bounds one adoption's retries while the cluster does not
// answer; the sweep starts another after it.
const adoptFor = 30 * time.Second

// AskWithin bounds one request to the cluster while adopting: a request
// to a group without a leader is never answered, so a short try and
// another are quicker than one long wait.
const AskWithin = 500 * time.Millisecond

// tryAdopt is one attempt of adopt; done means there is nothing more to
// do (the room runs here now, or elsewhere, or is over), err says why not
// otherwise. A node that is not the room's first adopter waits for it at
// every attempt that gets this far: after an election every survivor's
// attempt gets through at once, and the first to ask must not take all.
func (c *Node) tryAdopt(code string, lapsed uint64, lost string) (done bool, err error) {
	if c.o.Hub.Local(code) != nil {
		return true, nil
	}
	rec, err := c.quick.Room(code)
	if errors.Is(err, persistence.ErrNotFound) || err == nil && !unfinished(rec) {
		return true, nil // gone or over: its lease was only being let go
	}
	if err != nil {
		return false, err
	}
	o, err := c.owner(code) // also the sighting Claim counts its TTL from
	switch {
	case lost != "" && err == nil:
		return c.seize(code, o, lost)
	case errors.Is(err, lease.ErrNoOwner):
		if lost != "" {
			return true, nil // nobody's: the sweep takes it
		}
		o = lease.Owner{}
	case err != nil:
		return false, err
	case o.Revision != lapsed:
		return true, nil // renewed or taken meanwhile
	}
	if o.Node != "" && o.Node != c.cfg.Node {
		ctx, cancel := context.WithTimeout(c.ctx, AskWithin)
		served := remote.Served(ctx, c.nc, code)
		cancel()
		if served {
			// Its node lives and runs it, its lease suspended while the
			// cluster elects a leader: it renews once it can. If it never
			// can, it gives the room up, and a sweep takes it then.
			return true, nil
		}
	}
	if first := adopter(code, c.knownNodes(), o.Node); first != "" && first != c.cfg.Node {
		select {
		case <-c.ctx.Done():
			return true, nil
		case <-time.After(c.cfg.LeaseTTL / 2):
		}
		now, err := c.owner(code)
		switch {
		case err == nil && now.Revision != lapsed:
			return true, nil // the first adopter took it
		case err != nil && !errors.Is(err, lease.ErrNoOwner):
			return false, err
		}
	}
	// Claim waits out what is left of a TTL since the first sighting.
	ctx, cancel := context.WithTimeout(c.ctx, c.cfg.LeaseTTL+AskWithin)
	held, err := c.leases.Claim(ctx, code)
	cancel()
	switch {
	case errors.Is(err, lease.ErrHeld) || errors.Is(err, lease.ErrAlreadyHeld):
		return true, nil
	case err != nil:
		return false, err
	}
	return c.restoreTaken(code, held, o)
}

// seize takes over a room of the lost node (its routes closed) without
// waiting for its lease to lapse, if this node is the room's first
// adopter; the others leave it to that node, and take it when its lease
// lapses if that node cannot. o is the room's lease entry as just read.
// An entry that names this node, though it does not run the room, is a
// seizure of ours whose answer was lost: seized again.
func (c *Node) seize(code string, o lease.Owner, lost string) (done bool, err error) {
	switch {
	case o.Node != lost && o.Node != c.cfg.Node:
		return true, nil // not the lost node's, or taken over already
	case adopter(code, c.knownNodes(), lost) != c.cfg.Node:
		return true, nil
	}
	ctx, cancel := context.WithTimeout(c.ctx, AskWithin)
	held, err := c.leases.Seize(ctx, code, o.Revision)
	cancel()
	switch {
	case errors.Is(err, lease.ErrAlreadyHeld):
		return true, nil
	case err != nil:
		// ErrHeld too: the entry read may have been a follower's,
		// a renewal behind; read it again.
		return false, err
	}
	return c.restoreTaken(code, held, o)
}

// restoreTaken restores a room whose lease this node has just taken from a
// dead or lost owner, or lets the lease go if it cannot. o.Renewed, the
// owner's last sign of life, is where timed steps resume from.
func (c *Node) restoreTaken(code string, held *lease.Held, o lease.Owner) (done bool, err error) {
	if err := c.restore(code, held, o.Renewed); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = held.Release(ctx)
		cancel()
		return false, fmt.Errorf("restore: %w", err)
	}
	c.o.TookOver()
	return true, nil
}

// owner reads who holds code's lease, in one short try (AskWithin).
func (c *Node) owner(code string) (lease.Owner, error) {
	ctx, cancel := context.WithTimeout(c.ctx, AskWithin)
	defer cancel()
	return c.leases.Owner(ctx, code)
}

// adopter is the node that takes a room over first when its lease lapses:
// of the cluster's nodes other than lost (the one that held it), the one
// with the highest hash of room and node (rendezvous hashing), so a dead
// node's rooms spread evenly over the others, and each other node agrees
// which of them goes first. "" if no node is known.
func adopter(room string, nodes []string, lost string) string {
	best, bestHash := "", uint64(0)
	for _, n := range nodes {
		if n == lost {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(room))
		h.Write([]byte{0})
		h.Write([]byte(n))
		if v := h.Sum64(); best == "" || v > bestHash {
			best, bestHash = n, v
		}
	}
	return best
}

// knownNodes are the nodes that announced themselves (the node directory),
// as read at the last sweep, and this one.
func (c *Node) knownNodes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.known, c.cfg.Node) {
		c.known = append(c.known, c.cfg.Node)
	}
	return slices.Clone(c.known)
}

// learnEvery is how often the takeover loop reads the node list again
// (a round trip a node), which at every sweep was a good part of an idle
// cluster's cost. A node that joined
// since is first adopter of its share of a dead node's rooms only after
// this; until then the others take them, as they would anyway past half
// a TTL. An admin's command reads it afresh (AskOthers).
const learnEvery = 30 * time.Second

// learnNodes reads the node directory's IDs into known.
func (c *Node) learnNodes() {
	// Briefly: the takeover loop waits, and lapses queue up behind it.
	ctx, cancel := context.WithTimeout(c.ctx, AskWithin)
	defer cancel()
	nodes, err := c.store.Nodes(ctx)
	if err != nil {
		return // keep the last list
	}
	c.mu.Lock()
	c.known = nodes
	c.mu.Unlock()
}

// restore reads the room's record and log (after the claim: the old owner
// can no longer change them) and starts its actor under held.
func (c *Node) restore(code string, held *lease.Held, stopped time.Time) error {
	// Read in short tries while the lease is ours: the groups the dead
	// node led may still be electing their leaders.
	ctx, cancel := context.WithTimeout(c.ctx, adoptFor)
	defer cancel()
	var rec persistence.RoomRecord
	if err := jetstream.Patiently(ctx, func(context.Context) (err error) {
		rec, err = c.quick.Room(code)
		return err
	}); err != nil {
		return err
	}
	if !unfinished(rec) {
		return held.Release(context.Background())
	}
	// The log stream answers a short try first (a request sent while it
	// has no leader is lost, and waits out its whole timeout); then the
	// whole log, a long one being many reads in one call.
	if err := jetstream.Patiently(ctx, func(context.Context) error {
		_, err := c.quick.LastSeq(code)
		return err
	}); err != nil {
		return err
	}
	var entries [][]byte
	logs := c.store.WithTimeout(2 * time.Second)
	if err := jetstream.Patiently(ctx, func(context.Context) (err error) {
		entries, err = logs.Log(code)
		return err
	}); err != nil {
		return err
	}
	var err error
	g, ok := c.o.Games.Lookup(rec.Setup.Game)
	if !ok {
		return fmt.Errorf("unknown game %q", rec.Setup.Game)
	}
	if stopped.IsZero() {
		if stopped, err = c.store.LastAlive(); err != nil {
			return err
		}
	}
	cfg := *c.o.Room
	cfg.Game, cfg.Bots, cfg.Stopped, cfg.Lease = g.Game, g.Bots, stopped, held
	if _, err := c.o.Hub.Restore(cfg, rec.Engine(), entries); err != nil {
		return err
	}
	c.log.Info("room taken over", "room", code, "actions", len(entries), "term", held.Token())
	return nil
}

// Claim takes a new room's lease (table.Hub.Claim). A code with a lease
// entry is another room's (live, or its node died and it waits for an
// adopter): table.ErrCodeTaken, at once, rather than Claim's wait for the
// entry to lapse. Any other failure (no majority) comes back within
// claimWithin, and Create gives up on it.
func (c *Node) Claim(code string) (table.Lease, error) {
	o, err := c.owner(code)
	switch {
	case err == nil:
		return nil, fmt.Errorf("%w (node %s)", table.ErrCodeTaken, o.Node)
	case !errors.Is(err, lease.ErrNoOwner):
		return nil, err
	}
	ctx, cancel := context.WithTimeout(c.ctx, claimWithin)
	defer cancel()
	held, err := c.leases.Claim(ctx, code)
	if errors.Is(err, lease.ErrHeld) || errors.Is(err, lease.ErrAlreadyHeld) {
		return nil, fmt.Errorf("%w: %w", table.ErrCodeTaken, err)
	}
	if err != nil {
		if _, e := c.owner(code); e == nil {
			// Another node made its entry between our look and our
			// claim, and Claim waited on it.
			return nil, fmt.Errorf("%w: %w", table.ErrCodeTaken, err)
		}
		return nil, err
	}
	return held, nil
}

// A new table's checks in a cluster: the code in the store (codeCheckWithin),
// its lease entry (AskWithin, twice at most) and the claim (claimWithin)
// answer within 4.5 s together, so a player asking for a table when the cluster has lost
// its majority hears so within 5 s.
const (
	codeCheckWithin = 1500 * time.Millisecond
	claimWithin     = 2 * time.Second
)

// watchDirectory keeps the lobby's view of every unfinished room until
// the watch ends.
func (c *Node) watchDirectory() error {
	changes, err := c.store.WatchRooms(c.ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	clear(c.directory) // the watch sends every room first
	c.mu.Unlock()
	for ch := range changes {
		code := ch.Room.ID
		c.mu.Lock()
		if ch.Deleted || !unfinished(ch.Room) {
			delete(c.directory, code)
		} else {
			c.directory[code] = table.SummaryOf(ch.Room.Engine())
		}
		c.mu.Unlock()
		c.o.Hub.Changed()
	}
	return errors.New("the watch stopped")
}

// Node is this node's ID (admin.Cluster).
func (c *Node) Node() string { return c.cfg.Node }

// Store is the cluster's store, on JetStream.
func (c *Node) Store() *jetstream.Store { return c.store }

// CodeStore is the store as a new table's code check reads it: each
// read bounded, so that a cluster without its majority refuses a new
// table within Create's 5 s (see Claim).
func (c *Node) CodeStore() persistence.Store { return c.store.WithTimeout(codeCheckWithin) }

// Healthy is nil when this node can serve new players: it reaches a
// majority of the cluster and JetStream has a metadata leader (or is
// electing one: natsnode.Serving). A stream electing a new leader after
// a node died does not count: the node's own tables go on meanwhile, and
// a table that moves tells its players so, not that the server is
// degraded.
func (c *Node) Healthy() error { return c.nats.Serving() }

// Size is how many nodes the cluster has.
func (c *Node) Size() int { return c.nats.ClusterSize() }

// Players is the node's end of the players' own subjects
// (cluster/playerbus): notices and friends' presence.
func (c *Node) Players() *playerbus.Bus { return c.players }

// Conn is this node's connection to NATS (tests: a client of its own).
func (c *Node) Conn() *nats.Conn { return c.nc }

// Crash stops the node as kill -9 would, for its peers: its connection
// and NATS server gone at once, nothing let go (tests).
func (c *Node) Crash() {
	c.nc.Close()
	c.nats.Shutdown()
}

// AskOthers asks every node of the cluster but this one, by ID
// (admin.Cluster).
func (c *Node) AskOthers(req adminbus.Request, within time.Duration) []adminbus.Answer {
	c.learnNodes() // a node that joined since the last sweep is asked too
	others := slices.DeleteFunc(c.knownNodes(), func(n string) bool { return n == c.cfg.Node })
	slices.Sort(others)
	answers := adminbus.Ask(context.Background(), c.nc, others, req, within)
	for _, a := range answers {
		if a.Err != nil && !errors.Is(a.Err, adminbus.ErrNoAnswer) {
			c.log.Warn("a node's answer to an admin command was unreadable", "node", a.Node, "op", req.Op, "err", a.Err)
		}
	}
	return answers
}

// List implements table.Others: the cluster's unfinished rooms (the hub
// shows its own rooms' live summaries instead).
func (c *Node) List() []table.Summary {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]table.Summary, 0, len(c.directory))
	for _, s := range c.directory {
		out = append(out, s)
	}
	return out
}

// Has implements table.Others: whether another node runs a room with code.
func (c *Node) Has(code string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.directory[code]
	return ok
}

// Room implements table.Others: a handle on a room another node runs,
// through which a session here plays at it (cluster/remote). A room that
// cannot be reached says where it runs, so the player can ssh there.
func (c *Node) Room(code string) table.RoomHandle {
	c.mu.Lock()
	sum, ok := c.directory[code]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(c.ctx, 3*time.Second)
	defer cancel()
	if c.o.Degraded() {
		// Its node may be dead and no other can take it over: say so,
		// rather than "ssh to that node" or "try again".
		return table.Unreachable(sum, game.Refuse(nil, game.M("ui.degraded.table_unreachable", game.Text("Code", code))))
	}
	o, err := c.leases.Owner(ctx, code)
	if err != nil || o.Node == c.cfg.Node {
		// Between owners (or being restored here): worth a second try.
		return table.Unreachable(sum, table.ErrBusy)
	}
	h, err := remote.Dial(ctx, c.nc, code, c.o.Games, remote.Options{Logger: c.log})
	if err == nil {
		return h
	}
	if errors.Is(err, table.ErrBusy) || errors.Is(err, table.ErrClosed) && !remote.Served(ctx, c.nc, code) {
		// Nobody answers for it: its node died or handed it over, and its
		// lease names that node until another takes the table, within
		// seconds. Never send a player to a node that does not answer
		// (issue 41: "ssh to that node" named the node just killed).
		c.log.Info("a table between nodes", "room", code, "lease", o.Node, "err", err)
		return table.Unreachable(sum, table.ErrBusy)
	}
	c.log.Warn("a table on another node did not answer", "room", code, "node", o.Node, "err", err)
	join := o.Node
	if j, err := c.store.Node(ctx, o.Node); err == nil {
		join = j
	}
	return table.Unreachable(sum, game.Refuse(nil, game.M("table.err.elsewhere",
		game.Text("Code", code), game.Text("Node", o.Node), game.Text("Join", join))))
}

// Serve answers the other nodes' sessions about a room this node runs,
// until the room stops (table.Hub.Launched).
func (c *Node) Serve(r *table.Room) {
	g, ok := c.o.Games.Lookup(r.Summary().Game)
	if !ok {
		return
	}
	if _, err := remote.Serve(c.nc, r, g.Game, remote.Options{Logger: c.log}); err != nil {
		c.log.Error("a table cannot be served to other nodes", "room", r.Code(), "err", err)
	}
}

// Announce tells the other nodes the ssh line that reaches this one.
func (c *Node) Announce(join string) {
	ctx, cancel := context.WithTimeout(c.ctx, 5*time.Second)
	defer cancel()
	if err := c.store.PutNode(ctx, c.cfg.Node, join); err != nil {
		c.log.Warn("could not announce this node's ssh line", "err", err)
	}
}

// StopTakingOver ends the watches: a node shutting down releases its
// rooms for the others and must not take them back.
func (c *Node) StopTakingOver() {
	if c.cancel != nil {
		c.cancel()
	}
	c.wg.Wait()
}

// Close stops the watches, the client connection and the NATS server.
func (c *Node) Close() {
	c.StopTakingOver()
	if c.admin != nil {
		_ = c.admin.Unsubscribe()
	}
	if c.players != nil {
		c.players.Close()
	}
	if c.nc != nil {
		c.nc.Close()
	}
	c.nats.Shutdown()
}

func unfinished(r persistence.RoomRecord) bool {
	return r.Status == persistence.StatusWaiting || r.Status == persistence.StatusPlaying
}
