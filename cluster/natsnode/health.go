package natsnode

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// LeaderlessGrace is how long JetStream may go without a metadata leader,
// while this node still reaches a majority of the cluster, before the node
// stops counting as serving. A node that died leading it is replaced
// within NATS's election timeout (4–9 s), and meanwhile the other nodes'
// tables go on and logins answer from their last known copies: a load
// balancer must not drop every survivor for that (issue 41). A majority
// that froze rather than died keeps its routes up; it shows here once
// the leader has lost its quorum (10 s) and this grace has passed.
const LeaderlessGrace = 15 * time.Second

// health is what Serving remembers between calls: since when JetStream
// has had no metadata leader (zero: it has one).
type health struct {
	mu         sync.Mutex
	leaderless time.Time
}

// Serving is nil when this node can serve new players: it reaches (by its
// routes) a majority of the cluster's nodes, and JetStream has a metadata
// leader, or has been without one for less than LeaderlessGrace. Else it
// says why not. A stream whose leader died with its node, while it elects
// another, does not count: the node serves its own tables meanwhile. It
// asks the server in the process, no request crosses the network: cheap
// enough for a probe every second.
func (n *Node) Serving() error {
	if size := n.ClusterSize(); size > 1 {
		if reach := n.reachable(); reach <= size/2 {
			return fmt.Errorf("this node reaches %d of the cluster's %d nodes, not a majority", reach, size)
		}
	}
	err := n.metaHealth()
	n.health.mu.Lock()
	defer n.health.mu.Unlock()
	switch {
	case err == nil:
		n.health.leaderless = time.Time{}
		return nil
	case n.health.leaderless.IsZero():
		n.health.leaderless = time.Now()
	}
	if since := time.Since(n.health.leaderless); since >= LeaderlessGrace {
		return fmt.Errorf("%w (for %v)", err, since.Round(time.Second))
	}
	return nil
}

// metaHealth is nil when JetStream has a metadata leader this node is
// current with (nats-server's /healthz?js-meta-only).
func (n *Node) metaHealth() error {
	st := n.srv.Healthz(&server.HealthzOptions{JSMetaOnly: true})
	if st == nil || st.Status == "ok" {
		return nil
	}
	if st.Error != "" {
		return errors.New(st.Error)
	}
	return fmt.Errorf("jetstream %s", st.Status)
}

// reachable is how many of the cluster's nodes this one reaches: itself
// and every peer it has a route to.
func (n *Node) reachable() int {
	rz, err := n.srv.Routez(nil)
	if err != nil {
		return 1
	}
	peers := map[string]bool{}
	for _, r := range rz.Routes {
		peers[r.RemoteName] = true
	}
	return 1 + len(peers)
}

// LeadsMeta reports whether this node leads JetStream's metadata group
// now (the one whose death makes the others elect a new leader).
func (n *Node) LeadsMeta() bool { return n.srv.JetStreamIsLeader() }

// PeersOnline is how many of the cluster's nodes the metadata leader
// knows to be online with JetStream, itself included, when this node
// leads the metadata group (0 on any other node). An asset of R
// replicas can be placed only once R are: before, its creation is
// refused ("no suitable peers for placement, peer offline"), even with
// every node answering JetStream requests.
func (n *Node) PeersOnline() int { return len(n.srv.JetStreamClusterPeers()) }
