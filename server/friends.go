package server

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/playerbus"
	"github.com/bivouac-ssh/bivouac/friends"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/server/people"
)

// Friends and presence (packages friends and presence): the node's
// presence hub, the friends service on the store, and, in a cluster, the
// players' subjects (cluster/playerbus) that carry a friend's status, a
// question about one, and word that a player's circle changed to the
// nodes where the player has a session.

// Kinds of the player bus's messages for presence.
const (
	kindPresence = "presence"        // a presence.Message for the addressee
	kindAskWhere = "presence.ask"    // what may the asker know of the addressee?
	kindCircle   = "presence.circle" // the addressee's friends changed: read them again
)

// askWithin is how long a node waits for another's answer about a player.
const askWithin = 500 * time.Millisecond

// presenceBus carries presence between nodes on the player bus.
type presenceBus struct {
	bus *playerbus.Bus
	log func(msg string, args ...any)
}

func (b presenceBus) Send(to string, m presence.Message) {
	data, err := json.Marshal(m)
	if err == nil {
		err = b.bus.Send(to, kindPresence, data)
	}
	if err != nil {
		b.log("a friend's presence could not be sent to the other nodes", "err", err)
	}
}

func (b presenceBus) Ask(about, asker string) (presence.Status, bool) {
	data, err := b.bus.Ask(about, kindAskWhere, []byte(asker), askWithin)
	if err != nil {
		return presence.Status{}, false
	}
	var a whereAnswer
	if json.Unmarshal(data, &a) != nil {
		return presence.Status{}, false
	}
	return a.Status, a.OK
}

// whereAnswer is a node's answer to kindAskWhere.
type whereAnswer struct {
	Status presence.Status `json:"status"`
	OK     bool            `json:"ok"`
}

// wireFriends makes the node's friends service and presence hub (after
// wireNotices: requests and invitations are notices); in a cluster, the
// player bus's kinds for presence.
func (s *Server) wireFriends(rel *people.Relations) {
	node := ""
	if s.cluster != nil {
		node = s.cluster.Node()
	}
	s.presence = presence.New(node, nil)
	s.circles.read = s.store.Player
	s.friends = friends.New(s.store, nil)
	s.friends.Notices = s.notices
	s.friends.Changed = s.circlesChanged
	rel.Friends, rel.Changed = s.friends, s.circlesChanged
	s.app.Friends = people.Friends{Service: s.friends, Store: s.store, Read: s.circleRead,
		Changes: s.circles.count, Reload: s.reloadCircle}
	s.app.Presence = s.presence
	if s.cluster == nil {
		return
	}
	bus := s.cluster.Players()
	s.presence.SetBus(presenceBus{bus: bus, log: s.log.Warn})
	if err := bus.OnBeat(func(node string, quiet bool) {
		if quiet {
			s.presence.Quiet(node)
		} else {
			s.presence.Beat(node)
		}
	}); err != nil {
		// Without beats a dead node's players show online here until
		// they come back: worse, not broken.
		s.log.Warn("could not hear the other nodes' presence beats", "err", err)
	}
	bus.Handle(kindPresence, func(to, _ string, data []byte, _ func([]byte)) {
		var m presence.Message
		if json.Unmarshal(data, &m) == nil {
			s.presence.Receive(to, m)
		}
	})
	bus.Handle(kindAskWhere, func(to, _ string, data []byte, reply func([]byte)) {
		st, ok, here := s.presence.Answer(to, string(data))
		if !here || reply == nil {
			return // another node of theirs may know: only an answer counts
		}
		if out, err := json.Marshal(whereAnswer{Status: st, OK: ok}); err == nil {
			reply(out)
		}
	})
	bus.Handle(kindCircle, func(to, _ string, _ []byte, _ func([]byte)) {
		s.circles.changed(to)
		go s.reloadCircle(to) // reads the store: off the bus's goroutine
	})
}

// runPresence sweeps presence (away; nodes not heard from) until ctx
// ends and, in a cluster, says every presence.BeatEvery that this node is
// alive (a node not heard for presence.NodeLapse is taken as dead, and
// its players read as gone on the others); while it has no session, it
// says so once and neither beats nor sweeps.
func (s *Server) runPresence(ctx context.Context) {
	defer s.beating.Done()
	var beat, quiet func()
	if s.cluster != nil {
		beat, quiet = s.cluster.Players().Beat, s.cluster.Players().Quiet
	}
	s.presence.Run(ctx, beat, quiet)
}

// circlesChanged: the friends, requests or lists of the players ids
// changed. Presence reads their circles again, here and on the other
// nodes where they have a session.
func (s *Server) circlesChanged(ids ...string) {
	for _, id := range ids {
		s.circles.changed(id)
		s.reloadCircle(id)
		if s.cluster != nil {
			_ = s.cluster.Players().Send(id, kindCircle, nil) // best effort: a lost one is read at their next login
		}
	}
}

// reloadCircle gives presence player id's circle as stored, if they have
// a session here. One reload of a player at a time, each reading after
// the one before applied its read: two word that a circle changed (a
// request, then its acceptance) come close together, each reload on a
// goroutine of its own, and the older read applied last had this node
// forget the new friend until the player's next login. A read that fails
// keeps the circle as it was rather than emptying it.
func (s *Server) reloadCircle(id string) {
	mu := s.circles.lock(id)
	mu.Lock()
	defer mu.Unlock()
	if !s.presence.Here(id) {
		return
	}
	pr, err := s.circles.read(id)
	if err != nil && !errors.Is(err, persistence.ErrNotFound) {
		s.log.Warn("presence: a player's friends could not be read again; kept as they were", "err", err)
		return
	}
	s.presence.Reload(id, people.CircleOf(pr))
}

// circleReloads is what reloadCircle keeps: the profiles' read (the
// store's; a test's slows it) and a lock per player, striped; and, by the
// same stripes, how often word came that a circle changed: a login reads
// its player's circle before it is on presence, where that word's reload
// finds nobody, so it reads again once there if the count moved meanwhile
// (people.Friends.Circle).
type circleReloads struct {
	read    func(id string) (persistence.Profile, error)
	locks   [32]sync.Mutex
	changes [32]atomic.Uint64
}

func (c *circleReloads) stripe(id string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return h.Sum32() % uint32(len(c.locks))
}

func (c *circleReloads) lock(id string) *sync.Mutex { return &c.locks[c.stripe(id)] }

// changed counts word that player id's circle changed; count is the count.
func (c *circleReloads) changed(id string)      { c.changes[c.stripe(id)].Add(1) }
func (c *circleReloads) count(id string) uint64 { return c.changes[c.stripe(id)].Load() }

// circleRead is a login's read of the profile its circle comes from: as
// loginProfile's, with a deadline and the last copy past it.
func (s *Server) circleRead(id string) (persistence.Profile, error) {
	p, _, err := s.profiles.Read(id, func(err error) bool { return errors.Is(err, persistence.ErrNotFound) },
		func() (persistence.Profile, error) { return s.store.Player(id) })
	return p, err
}
