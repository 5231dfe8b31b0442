package jetstream

import (
	"context"
	"errors"
	"fmt"
	"slices"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// The node directory: "node.<node ID>" → the ssh line that reaches that
// node (server/node), in the records bucket. Node IDs are keys as they
// are (the releases before kept them so in a bucket of their own,
// "<name>-nodes", and the move copies keys as they are).

// PutNode stores node's ssh line: the node takes tables and players.
func (s *Store) PutNode(ctx context.Context, node, join string) error {
	_, err := s.nodes.Put(ctx, node, []byte(join))
	return err
}

// DeleteNode takes node out of the directory.
func (s *Store) DeleteNode(ctx context.Context, node string) error {
	return s.nodes.Delete(ctx, node)
}

// Node is node's ssh line: persistence.ErrNotFound if it has none.
func (s *Store) Node(ctx context.Context, node string) (string, error) {
	e, err := s.nodes.Get(ctx, node)
	if errors.Is(err, js.ErrKeyNotFound) {
		return "", fmt.Errorf("node %q: %w", node, persistence.ErrNotFound)
	}
	if err != nil {
		return "", err
	}
	return string(e.Value()), nil
}

// Nodes are the IDs of the nodes in the directory, sorted: a walk of
// the directory's keys on the bucket's leader, one round trip per node,
// each bounded (roundTrip) within ctx.
func (s *Store) Nodes(ctx context.Context) ([]string, error) {
	var ids []string
	err := scanKeys(ctx, s.nodes, ">", func(k string, _ []byte) error {
		ids = append(ids, k)
		return nil
	})
	slices.Sort(ids)
	return ids, err
}
