package server

import "github.com/bivouac-ssh/bivouac/server/node"

// A cluster that lost its majority can write nothing and may read little:
// what players are told then must be true. The server is degraded, what
// still works (staying connected, the lobby), and that nothing is lost.

// clusterDegraded is whether this node is in a cluster that cannot serve
// fully now (no JetStream majority, or this node not caught up).
func (s *Server) clusterDegraded() bool {
	return s.cluster != nil && s.health != nil && s.health() != nil
}

// degraded turns a failed read of the store into the degraded-server
// message when the store could not answer (node.Unavailable); any other
// error is returned as it is.
func (s *Server) degraded(err error) error {
	if !node.Unavailable(err, s.clusterDegraded()) {
		return err
	}
	s.log.Warn("a read failed: the store is unavailable", "err", err)
	return node.ReadError(err)
}
