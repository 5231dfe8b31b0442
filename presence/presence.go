// Package presence is who is where, told to friends only: in the lobby,
// at a table (the game, the table's code where the viewer may know it,
// how far the game is), watching one, away (connected, idle past
// AwayAfter), or gone. A player chooses who sees it: their friends (the
// default), everyone (who asks: the people they played with), or nobody.
//
// # Cost follows friends
//
// A node keeps a Hub of the players who have a session there. When one of
// them changes place, the hub tells that player's friends and nobody
// else: those with a session on this node directly (their sessions are
// signalled and read the new status when they draw), those on other nodes
// through the Bus, one message to each friend known to be online there.
// When a player comes, their node says so to each of their friends
// (online or not: a friend nobody serves costs NATS nothing beyond the
// publish), asking for an answer, and the nodes of the friends who are
// online answer with their status; that is how a node learns which of its
// players' friends are online elsewhere. So a change costs O(friends), a
// login O(friends), and nothing grows with the number of players online.
//
// # Mutual, and private
//
// A friendship is mutual: a status goes from P to W only if P lists W as
// a friend (P's node checks before it tells) and W lists P (W's node
// checks before it keeps or shows it), and neither ignores or blocks the
// other (Circle.Hidden): a half-made friendship shows nothing. A player
// who shows their presence to nobody is told to their friends as hidden.
// A private table's code is told only to a friend seated at that table:
// everyone else reads "a private table" with the game and how far it is.
//
// # Away
//
// A session that has had no key for AwayAfter reads as away (a player is
// away when all their sessions are), and comes back at its next key. No
// timer runs per session: a key stores its time (Session.Key: one atomic
// store and one load, no lock, no allocation), and the hub's sweep
// (Sweep, every few seconds; the away check every awayEvery) compares
// each session's last key with the clock and tells friends of a change
// like any other. A key on an away session brings it back at once.
//
// # Node failures
//
// Statuses heard from another node name it. Each node of a cluster says
// it is alive every BeatEvery (the cluster glue calls Beat on the others);
// a node not heard from for NodeLapse is taken as dead (Sweep): every
// status it told is dropped, so its players read as gone rather than
// stuck where they were, within NodeLapse and a sweep of its death. A
// node heard again after that (a partition healed, a node that was only
// slow) is answered as a login is: this node's players tell their
// friends their status again and ask for theirs.
//
// A node with no session says so once (Quiet) and then neither beats nor
// sweeps: it told no status anyone keeps, so its silence drops nothing,
// and an idle cluster does not wake every node every second. Its first
// session beats at once (and its login asks the friends, as any does);
// the others wait for its beats again from then on.
package presence

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// Visibility is who sees where a player is.
type Visibility uint8

const (
	ToFriends  Visibility = iota // the default: friends only
	ToEveryone                   // anyone who asks (and friends, told)
	ToNobody                     // nobody: friends see them as hidden
)

// Code is v as a profile stores it: "", "everyone" or "nobody".
func (v Visibility) Code() string {
	switch v {
	case ToEveryone:
		return "everyone"
	case ToNobody:
		return "nobody"
	}
	return ""
}

// ParseVisibility reads a stored or typed choice ("friends", "everyone",
// "nobody"; "" is friends); ok is false for anything else.
func ParseVisibility(s string) (Visibility, bool) {
	switch s {
	case "", "friends":
		return ToFriends, true
	case "everyone":
		return ToEveryone, true
	case "nobody":
		return ToNobody, true
	}
	return ToFriends, false
}

// Where a session is.
type Where uint8

const (
	Offline  Where = iota // no session anywhere (or none this node knows of)
	InLobby               // on the lobby or a page of their own (profile, friends…)
	AtTable               // seated at a table
	Watching              // watching a table
)

// rank orders places when a player has several sessions: the one that
// says most wins.
func (w Where) rank() int { return int(w) }

// Place is where one session of a player is.
type Place struct {
	Where   Where  `json:"w"`
	Game    string `json:"g,omitempty"` // at or watching a table: the game's ID
	Code    string `json:"c,omitempty"` // the table's code; "" where the viewer may not know it
	Private bool   `json:"p,omitempty"` // a private table
	Started bool   `json:"s,omitempty"` // the game is under way (else: waiting for players)
	// Stage is how far the game is ("mission 2", "night 2"; zero: not
	// started, or the game does not say).
	Stage words.Msg `json:"st,omitzero"`
	// Players are the identities seated at the table: a private table's
	// code is told to them alone. Never sent to other nodes.
	Players []string `json:"-"`
}

// forViewer is p as viewer may see it: a private table's code only if
// viewer is seated there.
func (p Place) forViewer(viewer string) Place {
	if p.Private && !slices.Contains(p.Players, viewer) {
		p.Code = ""
	}
	p.Players = nil
	return p
}

// Status is a player as a friend sees them.
type Status struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Place  Place  `json:"place"`
	Away   bool   `json:"away,omitempty"`   // every session idle past AwayAfter
	Hidden bool   `json:"hidden,omitempty"` // they show their presence to nobody
	// Seen, for a friend offline, is when this node saw them go (their
	// last session here closed, their node said they left or died) while
	// the viewer had a session here; zero: not seen going. Never sent.
	Seen time.Time `json:"-"`
}

// Online reports whether s is a player with a session.
func (s Status) Online() bool { return s.Place.Where != Offline && !s.Hidden }

// AwayAfter is how long a session goes without a key before its player
// reads as away; awayEvery how often the sweep looks, so a player reads
// as away between AwayAfter and AwayAfter+awayEvery after their last key.
const (
	AwayAfter = 10 * time.Minute
	awayEvery = 15 * time.Second
)

// BeatEvery is how often a node of a cluster says it is alive; a node not
// heard from for NodeLapse is taken as dead, and its players read as gone
// within NodeLapse+BeatEvery of its death (the sweep runs every BeatEvery).
const (
	BeatEvery = time.Second
	NodeLapse = 4 * time.Second
)

// Circle is what presence needs of a player's relations: their friends,
// whom they keep away (ignored or blocked: those see nothing of them, and
// they nothing of those), and who sees where they are.
type Circle struct {
	Name    string
	Friends []string
	Hidden  []string
	Shows   Visibility
}

// normal sorts the lists, for binary search.
func (c Circle) normal() Circle {
	c.Friends = slices.Clone(c.Friends)
	c.Hidden = slices.Clone(c.Hidden)
	slices.Sort(c.Friends)
	slices.Sort(c.Hidden)
	return c
}

func has(sorted []string, id string) bool {
	_, ok := slices.BinarySearch(sorted, id)
	return ok
}

// befriends reports whether c's player tells friend their status: c lists
// them as a friend and keeps them away in no way.
func (c *Circle) befriends(friend string) bool {
	return has(c.Friends, friend) && !has(c.Hidden, friend)
}

// Message is what one node tells another about player From, for player
// To (the addressee, on whose subject it travels).
type Message struct {
	From   Status `json:"from"`             // as To may see it; Place.Where Offline: gone from that node
	Node   string `json:"node"`             // the node From's status is about
	Answer bool   `json:"answer,omitempty"` // To's node answers with To's status (From just came)
	Gone   bool   `json:"gone,omitempty"`   // From no longer counts To as a friend: forget them
}

// Bus carries messages to a player's other nodes (nil: a single node).
// Send must not block. Ask asks the nodes of player about as asker and
// returns what the first answers (false: nobody answered, or they may not
// say).
type Bus interface {
	Send(to string, m Message)
	Ask(about, asker string) (Status, bool)
}

// Hub is one node's presence: the players with a session here, and what
// it heard of their friends from other nodes.
type Hub struct {
	node string
	bus  Bus

	now func() time.Time // the clock (tests: SetClock)

	mu    sync.Mutex
	here  map[string]*player
	nodes map[string]*nodeHeard // other nodes that beat, by ID
	swept time.Time             // the last away sweep

	came chan struct{} // a first player came: Run beats again (one slot)
}

// nodeHeard is when another node was last heard, and whether it was
// taken as dead since, or said it has no session (quiet: it is not
// expected to beat, and told no status to drop).
type nodeHeard struct {
	at    time.Time
	gone  bool
	quiet bool
}

// player is one player with a session on this node.
type player struct {
	id       string
	circle   Circle
	sessions []*Session
	status   Status // merged from sessions (Place.Players kept)
	// remote is what other nodes told of this player's friends: friend →
	// node → status as this player may see it.
	remote map[string]map[string]Status
	// seen is when friends this player saw online went (Status.Seen).
	seen map[string]time.Time
}

// saw notes that friend f, last seen as st, went now (unless they show
// their presence to nobody: then nothing is kept of it).
func (p *player) saw(f string, st Status, now time.Time) {
	if st.Hidden {
		return
	}
	if p.seen == nil {
		p.seen = map[string]time.Time{}
	}
	p.seen[f] = now
}

// New is node's hub; bus carries what is for other nodes (nil: none).
func New(node string, bus Bus) *Hub {
	return &Hub{node: node, bus: bus, now: time.Now, here: map[string]*player{}, nodes: map[string]*nodeHeard{},
		came: make(chan struct{}, 1)}
}

// SetClock has the hub read the time from now (tests; call it before the
// first Join).
func (h *Hub) SetClock(now func() time.Time) { h.now = now }

// SetBus has the hub tell other nodes through bus from now on (call it
// before the first Join).
func (h *Hub) SetBus(bus Bus) { h.bus = bus }

// Session is one session of a player, as presence knows it. Its methods
// are safe from any goroutine; none blocks on another session or node.
type Session struct {
	h      *Hub
	p      *player
	signal chan struct{}

	// last is when the session's last key came (unix ns; Key), read by
	// the sweep; isAway mirrors away for Key, which takes no lock.
	last   atomic.Int64
	isAway atomic.Bool

	// Guarded by h.mu.
	place   Place
	away    bool
	at      time.Time
	closed  bool
	changed []string // friends whose status changed since the last Changed
	spare   []string // the slice Changed gave out before, reused
	all     bool     // too many changed (or the circle did): read them all
}

// maxChanged is how many changed friends a session keeps by name before
// it only says "all of them" (its reader then reads every friend).
const maxChanged = 64

// C is signalled (one slot) when a friend's status changed: Changed says
// whose, Friend reads one.
func (s *Session) C() <-chan struct{} { return s.signal }

// Changed is the friends whose status changed since the last call, or
// all: read every friend again (Friends). The slice is the caller's until
// the next call.
func (s *Session) Changed() (ids []string, all bool) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	ids, all = s.changed, s.all
	s.changed, s.spare, s.all = s.spare[:0], ids, false
	if all {
		return nil, true
	}
	return ids, false
}

// touch notes that friend's status changed, and signals.
func (s *Session) touch(friend string) {
	switch {
	case friend == "" || len(s.changed) >= maxChanged:
		s.all = true
	case !slices.Contains(s.changed, friend):
		s.changed = append(s.changed, friend)
	}
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

// Join registers a session of player id, named name, with their circle
// (read with their profile at login), in the lobby.
func (h *Hub) Join(id, name string, c Circle) *Session {
	now := h.now()
	s := &Session{h: h, signal: make(chan struct{}, 1), place: Place{Where: InLobby}, at: now}
	s.last.Store(now.UnixNano())
	var out []send
	h.mu.Lock()
	p := h.here[id]
	first := p == nil
	if first {
		p = &player{id: id, circle: c.normal(), remote: map[string]map[string]Status{}}
		p.circle.Name = name
		h.here[id] = p
		if len(h.here) == 1 {
			select { // Run beats again, at once
			case h.came <- struct{}{}:
			default:
			}
		}
	}
	s.p = p
	p.sessions = append(p.sessions, s)
	changed := h.remerge(p)
	if first {
		out = h.announce(p, p.circle.Friends, true)
	} else if changed {
		out = h.announce(p, nil, false)
	}
	h.mu.Unlock()
	h.post(out)
	return s
}

// Set moves the session to pl.
func (s *Session) Set(pl Place) {
	s.update(func() { s.place, s.at = pl, s.h.now() })
}

// Key says a key came at unixNano (the reader's clock, as the hub's):
// an away session is back at once. On the path of every key: one atomic
// store and one load, unless the session was away.
func (s *Session) Key(unixNano int64) {
	s.last.Store(unixNano)
	if s.isAway.Load() {
		s.update(func() { s.setAway(false) })
	}
}

// setAway marks the session away or back (h.mu held).
func (s *Session) setAway(away bool) {
	s.away = away
	s.isAway.Store(away)
}

func (s *Session) update(change func()) {
	h := s.h
	h.mu.Lock()
	if s.closed {
		h.mu.Unlock()
		return
	}
	change()
	var out []send
	if h.remerge(s.p) {
		out = h.announce(s.p, nil, false)
	}
	h.mu.Unlock()
	h.post(out)
}

// Close ends the session; the player's last session here going tells
// their friends they are gone from this node.
func (s *Session) Close() {
	h := s.h
	h.mu.Lock()
	if s.closed {
		h.mu.Unlock()
		return
	}
	s.closed = true
	p := s.p
	p.sessions = slices.DeleteFunc(p.sessions, func(x *Session) bool { return x == s })
	was := p.status
	var out []send
	if h.remerge(p) {
		out = h.announce(p, nil, false)
	}
	if len(p.sessions) == 0 {
		delete(h.here, p.id)
		now := h.now()
		for _, f := range p.circle.Friends {
			if q := h.here[f]; q != nil && q.circle.befriends(p.id) && p.circle.befriends(f) {
				q.saw(p.id, was, now)
			}
		}
	}
	h.mu.Unlock()
	h.post(out)
}

// remerge makes p's status from its sessions and reports whether it
// changed (h.mu held).
func (h *Hub) remerge(p *player) bool {
	st := Status{ID: p.id, Name: p.circle.Name, Hidden: p.circle.Shows == ToNobody}
	var best *Session
	st.Away = len(p.sessions) > 0
	for _, s := range p.sessions {
		if best == nil || s.place.Where.rank() > best.place.Where.rank() ||
			s.place.Where == best.place.Where && s.at.After(best.at) {
			best = s
		}
		st.Away = st.Away && s.away
	}
	if best != nil {
		st.Place = best.place
	} else {
		st.Hidden = false // gone: said the same whoever may see them
	}
	same := st.ID == p.status.ID && st.Name == p.status.Name && st.Away == p.status.Away && st.Hidden == p.status.Hidden &&
		samePlace(st.Place, p.status.Place)
	p.status = st
	return !same
}

func samePlace(a, b Place) bool {
	return a.Where == b.Where && a.Game == b.Game && a.Code == b.Code && a.Private == b.Private &&
		a.Started == b.Started && a.Stage.Equal(b.Stage) && slices.Equal(a.Players, b.Players)
}

// send is a message waiting to go out once h.mu is let go.
type send struct {
	to string
	m  Message
}

// seenBy is p's status as friend may see it.
func (p *player) seenBy(friend string) Status {
	st := p.status
	if st.Hidden {
		return Status{ID: st.ID, Name: st.Name, Hidden: true}
	}
	st.Place = st.Place.forViewer(friend)
	return st
}

// announce tells p's friends of p's status (h.mu held): those here by
// their sessions' signal, those elsewhere by a message, to every friend
// in all (a login, new friends: with a request for their answer) and to
// the friends known online elsewhere.
func (h *Hub) announce(p *player, all []string, answer bool) []send {
	var out []send
	for _, f := range p.circle.Friends {
		if has(p.circle.Hidden, f) {
			continue
		}
		if q := h.here[f]; q != nil && q.circle.befriends(p.id) {
			q.touch(p.id)
		}
	}
	if h.bus == nil {
		return out
	}
	told := map[string]bool{}
	for _, f := range all {
		if p.circle.befriends(f) {
			out = append(out, send{f, Message{From: p.seenBy(f), Node: h.node, Answer: answer}})
			told[f] = true
		}
	}
	for f := range p.remote {
		if !told[f] && p.circle.befriends(f) {
			out = append(out, send{f, Message{From: p.seenBy(f), Node: h.node}})
		}
	}
	return out
}

func (h *Hub) post(out []send) {
	for _, s := range out {
		h.bus.Send(s.to, s.m)
	}
}

// touch tells p's sessions that friend's status changed ("": any).
func (p *player) touch(friend string) {
	for _, s := range p.sessions {
		s.touch(friend)
	}
}

// Receive takes what another node told of a friend for player to (the
// bus's handler calls it).
func (h *Hub) Receive(to string, m Message) {
	var out []send
	h.mu.Lock()
	p := h.here[to]
	from := m.From.ID
	if n := h.nodes[m.Node]; n != nil {
		out = h.heard(n) // a node that says something is alive
	}
	if p == nil || from == "" || m.Node == "" {
		h.mu.Unlock()
		h.post(out)
		return
	}
	if m.Gone || !p.circle.befriends(from) {
		if _, ok := p.remote[from]; ok {
			delete(p.remote, from)
			p.touch(from)
		}
		h.mu.Unlock()
		h.post(out)
		return
	}
	m.From.Place.Players = nil
	nodes := p.remote[from]
	if m.From.Place.Where == Offline && !m.From.Hidden {
		if was, ok := nodes[m.Node]; ok {
			p.saw(from, was, h.now())
		}
		delete(nodes, m.Node)
		if len(nodes) == 0 {
			delete(p.remote, from)
		}
	} else {
		if nodes == nil {
			nodes = map[string]Status{}
			p.remote[from] = nodes
		}
		nodes[m.Node] = m.From
	}
	p.touch(from)
	if m.Answer && h.bus != nil {
		out = append(out, send{from, Message{From: p.seenBy(from), Node: h.node}})
	}
	h.mu.Unlock()
	h.post(out)
}

// Run sweeps every BeatEvery until ctx ends, calling beat first each
// time (nil: none; a cluster's glue tells the other nodes this one is
// alive). While no player has a session here it does neither: it calls
// quiet once (nil: none; the glue tells the others not to wait for this
// node's beats) and waits for the first player, then beats at once.
func (h *Hub) Run(ctx context.Context, beat, quiet func()) {
	t := time.NewTicker(BeatEvery)
	defer t.Stop()
	for {
		select {
		case <-h.came: // left by a player who came while this loop beat
		default:
		}
		if h.Online() == 0 {
			t.Stop()
			if quiet != nil {
				quiet()
			}
			select {
			case <-ctx.Done():
				return
			case <-h.came:
			}
			t.Reset(BeatEvery)
			// Nodes not heard from while this one slept are looked at
			// now, before the new player counts on what they told.
			h.Sweep()
		}
		if beat != nil {
			beat() // at once: a node that dies in its first second is missed too
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.Sweep()
		}
	}
}

// Sweep takes the nodes not heard from for NodeLapse as dead (their
// players read as gone) and, every awayEvery, marks away the sessions
// without a key for AwayAfter (and back those with one since).
func (h *Hub) Sweep() {
	now := h.now()
	var out []send
	h.mu.Lock()
	for node, n := range h.nodes {
		if !n.gone && !n.quiet && now.Sub(n.at) >= NodeLapse {
			n.gone = true
			h.nodeGone(node)
		}
	}
	if now.Sub(h.swept) >= awayEvery {
		h.swept = now
		cut := now.Add(-AwayAfter).UnixNano()
		for _, p := range h.here {
			changed := false
			for _, s := range p.sessions {
				if away := s.last.Load() <= cut; away != s.away {
					s.setAway(away)
					changed = true
				}
			}
			if changed && h.remerge(p) {
				out = append(out, h.announce(p, nil, false)...)
			}
		}
	}
	h.mu.Unlock()
	h.post(out)
}

// Beat says node is alive (its beat came).
func (h *Hub) Beat(node string) {
	if node == "" || node == h.node {
		return
	}
	h.mu.Lock()
	n := h.nodes[node]
	if n == nil {
		n = &nodeHeard{}
		h.nodes[node] = n
	}
	out := h.heard(n)
	h.mu.Unlock()
	h.post(out)
}

// Quiet says node has no session (it said so): it told no status anyone
// keeps here, and is not taken as dead for not beating until it beats
// again.
func (h *Hub) Quiet(node string) {
	if node == "" || node == h.node {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.nodes[node]
	if n == nil {
		n = &nodeHeard{}
		h.nodes[node] = n
	}
	// Taken as dead before (what it told is dropped already): alive, with
	// nobody to tell of again.
	n.at, n.gone, n.quiet = h.now(), false, true
}

// Hears reports whether node's beat was heard, and it is not taken as
// dead.
func (h *Hub) Hears(node string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.nodes[node]
	return n != nil && !n.gone
}

// heard notes that node n was heard now (h.mu held). If it was taken as
// dead, this node's players tell their friends their status again and
// ask for theirs, as at a login: what was dropped of n's players comes
// back in their answers.
func (h *Hub) heard(n *nodeHeard) []send {
	n.at, n.quiet = h.now(), false
	if !n.gone {
		return nil
	}
	n.gone = false
	if h.bus == nil {
		return nil
	}
	var out []send
	for _, p := range h.here {
		for _, f := range p.circle.Friends {
			if p.circle.befriends(f) {
				out = append(out, send{f, Message{From: p.seenBy(f), Node: h.node, Answer: true}})
			}
		}
	}
	return out
}

// NodeGone forgets everything node told: its players read as gone.
func (h *Hub) NodeGone(node string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nodeGone(node)
}

// nodeGone is NodeGone with h.mu held.
func (h *Hub) nodeGone(node string) {
	for _, p := range h.here {
		dropped := false
		for f, nodes := range p.remote {
			if was, ok := nodes[node]; ok {
				p.saw(f, was, h.now())
				delete(nodes, node)
				dropped = true
				if len(nodes) == 0 {
					delete(p.remote, f)
				}
			}
		}
		if dropped {
			p.touch("")
		}
	}
}

// Reload takes player id's new circle (a friend added or gone, someone
// blocked, a new choice of who sees them) if they have a session here:
// new friends are told and asked, friends gone are told to forget them,
// and their sessions read their friends again.
func (h *Hub) Reload(id string, c Circle) {
	var out []send
	h.mu.Lock()
	p := h.here[id]
	if p == nil {
		h.mu.Unlock()
		return
	}
	old := p.circle
	c = c.normal()
	c.Name = old.Name
	p.circle = c
	var added, gone []string
	for _, f := range c.Friends {
		if !old.befriends(f) && c.befriends(f) {
			added = append(added, f)
		}
	}
	for _, f := range old.Friends {
		if old.befriends(f) && !c.befriends(f) {
			gone = append(gone, f)
		}
	}
	for f := range p.remote {
		if !c.befriends(f) {
			delete(p.remote, f)
		}
	}
	h.remerge(p)
	out = h.announce(p, added, true)
	for _, f := range gone {
		if q := h.here[f]; q != nil {
			q.touch(id)
		}
		if h.bus != nil {
			out = append(out, send{f, Message{From: Status{ID: id}, Node: h.node, Gone: true}})
		}
	}
	p.touch("")
	h.mu.Unlock()
	h.post(out)
}

// Friend is friend id's status as the session's player may see it, and
// whether they are online (or hidden) as far as this node knows (if not,
// Seen may say when they went).
func (s *Session) Friend(id string) (Status, bool) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.friend(s.p, id)
}

// friend is Friend with h.mu held.
func (h *Hub) friend(p *player, f string) (Status, bool) {
	if !p.circle.befriends(f) {
		return Status{}, false
	}
	var st Status
	ok := false
	if q := h.here[f]; q != nil && q.circle.befriends(p.id) {
		st, ok = q.seenBy(p.id), true
	}
	for _, r := range p.remote[f] {
		if !ok || better(r, st) {
			st, ok = r, true
		}
	}
	if !ok {
		return Status{ID: f, Seen: p.seen[f]}, false
	}
	return st, ok
}

// Friends is the status of each friend of the session's player that is
// online (or hidden) as far as this node knows, by identity: those with a
// session here, and what other nodes told. A friend who is not in it is
// offline.
func (s *Session) Friends() map[string]Status {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	p := s.p
	out := map[string]Status{}
	for _, f := range p.circle.Friends {
		if st, ok := h.friend(p, f); ok {
			out[f] = st
		}
	}
	return out
}

// better reports whether a says more than b of one player (several
// nodes, several sessions).
func better(a, b Status) bool {
	if a.Hidden != b.Hidden {
		return b.Hidden
	}
	return a.Place.Where.rank() > b.Place.Where.rank() || a.Place.Where == b.Place.Where && b.Away && !a.Away
}

// Lookup is what asker may know of player id: their status if they are
// online and show it to asker (friends both ways, or everyone), asking
// the other nodes when id has no session here. It may wait on the
// network: call it off a session's event loop.
func (h *Hub) Lookup(asker, id string) (Status, bool) {
	if st, ok, here := h.Answer(id, asker); here {
		return st, ok
	}
	if h.bus == nil {
		return Status{}, false
	}
	return h.bus.Ask(id, asker)
}

// Answer is what this node may tell asker of player id (ok), and whether
// id has a session here at all (here).
func (h *Hub) Answer(id, asker string) (st Status, ok, here bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.here[id]
	if p == nil {
		return Status{}, false, false
	}
	switch {
	case has(p.circle.Hidden, asker) || p.circle.Shows == ToNobody:
		return Status{}, false, true
	case p.circle.Shows == ToEveryone, p.circle.befriends(asker):
		return p.seenBy(asker), true, true
	}
	return Status{}, false, true
}

// Here reports whether player id has a session on this node.
func (h *Hub) Here(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.here[id] != nil
}

// Online is how many players have a session on this node.
func (h *Hub) Online() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.here)
}
