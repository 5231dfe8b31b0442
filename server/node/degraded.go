package node

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

// Unavailable reports whether err, a failed read of the store, is to be
// told as the server degraded (ReadError): the store could not answer, or
// the cluster cannot serve fully now (degraded). Not when it found
// nothing, nor an error already in words.
func Unavailable(err error, degraded bool) bool {
	if err == nil || errors.Is(err, persistence.ErrNotFound) {
		return false
	}
	var said *game.Error
	if errors.As(err, &said) {
		return false
	}
	return storeUnavailable(err) || degraded
}

// ReadError is a read that failed for want of the cluster as a player is
// told it, rather than a raw "nats: API error: code=503".
func ReadError(err error) error { return game.Refuse(err, game.M("ui.degraded.records")) }

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
