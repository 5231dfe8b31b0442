package natsnode

import (
	"context"
	"hash/fnv"
	"maps"
	"slices"
	"time"
	_ "unsafe" // go:linkname: a raft group's node has no exported lookup

	"github.com/nats-io/nats-server/v2/server"
)

// A peer process that dies (kill -9, a crash, the OOM killer) has its
// sockets closed by its kernel at once: this node's server sees every
// route to it drop within moments. A peer that is paused (SIGSTOP) or
// starved keeps its sockets open, and its routes stay up until a write
// to it times out (10 s) or its pings go unanswered (minutes). So a peer
// whose routes all closed is lost: evidence of death, not a guess from
// silence. It may still be alive (a route cut between two live nodes),
// which costs at most needless work: whatever takes over on it must be
// safe against a live peer (the room leases' compare-and-set and the
// logs' fenced appends are).

// WatchLost sends the name of each peer whose last route to this node
// closes, looking every `every` (a count of routes in the process; the
// names are read only when it changes). A peer whose route closes and
// opens again between two looks is not sent. The channel closes when ctx
// ends.
func (n *Node) WatchLost(ctx context.Context, every time.Duration) <-chan string {
	out := make(chan string, 4)
	go func() {
		defer close(out)
		tick := time.NewTicker(every)
		defer tick.Stop()
		routes, remotes, peers := n.srv.NumRoutes(), n.srv.NumRemotes(), n.routedPeers()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			r, k := n.srv.NumRoutes(), n.srv.NumRemotes()
			if r == routes && k == remotes {
				continue
			}
			routes, remotes = r, k
			now := n.routedPeers()
			for p := range peers {
				if !now[p] {
					select {
					case out <- p:
					case <-ctx.Done():
						return
					}
				}
			}
			peers = now
		}
	}()
	return out
}

// Routed are the peers this node has a route to now, by name.
func (n *Node) Routed() []string {
	return slices.Sorted(maps.Keys(n.routedPeers()))
}

// routedPeers are the peers this node has a route to now, by name.
func (n *Node) routedPeers() map[string]bool {
	peers := map[string]bool{}
	rz, err := n.srv.Routez(nil)
	if err != nil {
		return peers
	}
	for _, r := range rz.Routes {
		if r.RemoteName != "" {
			peers[r.RemoteName] = true
		}
	}
	return peers
}

//go:linkname lookupRaftNode github.com/nats-io/nats-server/v2/server.(*Server).lookupRaftNode
func lookupRaftNode(s *server.Server, group string) server.RaftNode

// StandFor starts an election now in every replicated group of this
// node that the lost peer led, rather than after the election timeout
// (DefaultElections: 3–4.5 s): those groups (a room's lease, record and
// log among them) answer nothing until one is held. Of the group's other
// members this node still reaches, one alone stands (the same one on
// every node: the highest hash of group and name), so two candidates do
// not split the vote; if its log is behind another's, that one stands
// instead, at once (nats-server's vote handling). With all, this node
// stands in every group still led by the lost peer as far as it knows
// (no candidate asked for its vote): a second round, a moment after the
// first, for a chosen member that could not stand (a node just started,
// its groups not yet running). It returns how many groups this node stood
// in. Standing is always safe in raft: if the peer lives after all, a
// leader of a later term takes over from it.
func (n *Node) StandFor(lost string, all bool) int {
	reached := n.routedPeers()
	reached[n.cfg.Name] = true
	stood := 0
	for _, acc := range []*server.Account{n.srv.SystemAccount(), n.srv.GlobalAccount()} {
		if acc == nil {
			continue
		}
		status := n.srv.Raftz(&server.RaftzOptions{AccountFilter: acc.Name})
		if status == nil {
			continue
		}
		for group, g := range (*status)[acc.Name] {
			leader, ok := g.Peers[g.Leader]
			if !ok || leader.Name != lost {
				continue
			}
			members := []string{n.cfg.Name}
			for _, p := range g.Peers {
				if p.Name != lost && reached[p.Name] {
					members = append(members, p.Name)
				}
			}
			if !all && candidate(group, members) != n.cfg.Name {
				continue
			}
			if rn := lookupRaftNode(n.srv, group); rn != nil && rn.Campaign() == nil {
				stood++
			}
		}
	}
	return stood
}

// candidate is the member that stands for group: the highest hash of
// group and name (rendezvous hashing), which spreads a dead peer's groups
// over the others.
func candidate(group string, members []string) string {
	best, bestHash := "", uint64(0)
	for _, m := range members {
		h := fnv.New64a()
		h.Write([]byte(group))
		h.Write([]byte{0})
		h.Write([]byte(m))
		if v := h.Sum64(); best == "" || v > bestHash || v == bestHash && m < best {
			best, bestHash = m, v
		}
	}
	return best
}
