package server

import (
	"context"
	"encoding/json"

	"github.com/bivouac-ssh/bivouac/cluster/playerbus"
	"github.com/bivouac-ssh/bivouac/notice"
)

// Notices to players (package notice): every session opens an inbox on
// the node's board; in a cluster the board's relay carries a notice to
// the player's other nodes on their own subject (cluster/playerbus),
// where it is delivered to the sessions there.

// kindNotice is the player bus's kind for notices.
const kindNotice = "notice"

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
}

// hereOnBus has this node listen on the player's subject while the
// session lasts (a cluster's nodes reach the player's sessions here).
func (s *Server) hereOnBus(ctx context.Context, id string) {
	if s.cluster != nil {
		context.AfterFunc(ctx, s.cluster.Players().Here(id))
	}
}
