package server

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/playerbus"
	"github.com/bivouac-ssh/bivouac/notice"
)

// Notices to players (package notice): every session opens an inbox on
// the node's board; in a cluster the board's relay carries a notice to
// the player's other nodes on their own subject (cluster/playerbus),
// where it is delivered to the sessions there.

// kindNotice is the player bus's kind for notices; kindHere asks a
// player's other nodes whether a session of theirs is there.
const (
	kindNotice = "notice"
	kindHere   = "here"
)

// hereWithin bounds how long a node waits for another to say a player is
// connected there (the outbox's senders wait it, never a table).
const hereWithin = time.Second

// noticeRelay carries notices over the player bus.
type noticeRelay struct {
	bus *playerbus.Bus
	log func(msg string, args ...any)
}

func (r noticeRelay) Relay(n notice.Notice) {
	data, err := json.Marshal(n)
	if err == nil {
		err = r.bus.Send(n.To, kindNotice, data)
	}
	if err != nil {
		r.log("a notice could not be sent to the player's other nodes", "err", err) // never the notice: it may hold a private code
	}
}

// wireNotices makes the node's notice board; in a cluster, its relay
// and the player bus's delivery to this node's sessions.
func (s *Server) wireNotices() {
	s.notices = notice.NewBoard(nil)
	s.app.Notices = s.notices
	if s.cluster == nil {
		return
	}
	bus := s.cluster.Players()
	s.notices.SetRelay(noticeRelay{bus: bus, log: s.log.Warn})
	bus.Handle(kindNotice, func(_, _ string, data []byte, _ func([]byte)) {
		var n notice.Notice
		if json.Unmarshal(data, &n) == nil {
			s.notices.Deliver(n)
		}
	})
	bus.Handle(kindHere, func(to, _ string, _ []byte, reply func([]byte)) {
		if reply != nil && s.notices.Here(to) {
			reply([]byte{1})
		}
	})
}

// connected reports whether player id has a session on any node of the
// cluster: this node's, else the first other node that answers on the
// player's subject within hereWithin (only nodes serving them listen
// there, so a player connected nowhere costs one publish nobody takes).
// The outbox asks it before a webhook goes out: a player connected
// anywhere hears of their move in their terminal instead. An error says
// it could not be told: a node listens there but did not answer in time
// (a slow node, or the bus failed), and the outbox asks again.
func (s *Server) connected(id string) (bool, error) {
	if s.notices.Here(id) {
		return true, nil
	}
	if s.cluster == nil {
		return false, nil
	}
	_, err := s.cluster.Players().Ask(id, kindHere, nil, hereWithin)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, playerbus.ErrSilent):
		return false, err
	case errors.Is(err, playerbus.ErrNobody):
		return false, nil
	}
	s.log.Warn("notify: asking the cluster whether a player is connected", "err", err)
	return false, err
}

// hereOnBus has this node listen on the player's subject while the
// session lasts (a cluster's nodes reach the player's sessions here).
func (s *Server) hereOnBus(ctx context.Context, id string) {
	if s.cluster != nil {
		context.AfterFunc(ctx, s.cluster.Players().Here(id))
	}
}
