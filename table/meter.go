package table

import "time"

// Meter hears what rooms do, for the operator's metrics. It is called on
// a room's actor, so it must be quick and never block: an atomic add.
type Meter interface {
	// Moved is a player's move the room took: took runs from the actor
	// taking the command to the last member's mailbox holding the new
	// view (the rules, the store's write and the publish). The frame a
	// session then draws is its own affair, and not counted.
	Moved(took time.Duration)
}

// EachLocal calls fn with the summary of every room this node runs (not
// the cluster's others). fn must not call back into the hub.
func (h *Hub) EachLocal(fn func(Summary)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.rooms {
		fn(r.Summary())
	}
}
