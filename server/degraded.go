package server

import (
	"context"
	"errors"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"

	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"
)

// A cluster that lost its majority can write nothing and may read little:
// what players are told then must be true. The server is degraded, what
// still works (staying connected, the lobby), and that nothing is lost.

// clusterDegraded is whether this node is in a cluster that cannot serve
// fully now (no JetStream majority, or this node not caught up).
func (s *Server) clusterDegraded() bool {
	return s.cluster != nil && s.health != nil && s.health() != nil
}

// degraded turns a failed read of the store into the degraded-server
// message when the store could not answer (rather than a raw
// "nats: API error: code=503"); any other error is returned as it is.
func (s *Server) degraded(err error) error {
	if err == nil || errors.Is(err, persistence.ErrNotFound) {
		return err
	}
	var said *game.Error
	if errors.As(err, &said) {
		return err // already in words
	}
	if storeUnavailable(err) || s.clusterDegraded() {
		s.log.Warn("a read failed: the store is unavailable", "err", err)
		return game.Refuse(err, game.M("ui.degraded.records"))
	}
	return err
}

// storeUnavailable is whether err says the store did not answer, rather
// than that it refused: JetStream without a majority ("503 JetStream
// system temporarily unavailable"), a request nobody answered, a timeout.
func storeUnavailable(err error) bool {
	var api *js.APIError
	if errors.As(err, &api) && api.Code == 503 {
		return true
	}
	for _, e := range []error{context.DeadlineExceeded, nats.ErrTimeout, nats.ErrNoResponders,
		js.ErrNoStreamResponse, nats.ErrConnectionClosed, nats.ErrDisconnected} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
