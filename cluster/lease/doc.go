// Package lease makes sure at most one node runs a room's actor at a time,
// and that a node which has lost a room stops before another one starts.
//
// # The protocol
//
// A room's lease is one entry of the JetStream KV bucket [Bucket], keyed by
// the room code, naming the owner node and its term. Every write to the
// bucket gets the next revision of its stream, so revisions only grow.
//
//   - Claim: if the room has no entry (or a deleted one), create it if
//     absent. Otherwise wait until this node has seen the same revision
//     unchanged for a full TTL on its own clock, counted from the first time
//     it saw that revision, then compare-and-set on that revision. A renewal
//     in the meantime makes the set fail: the room is held ([ErrHeld]).
//   - Renew, every Renew: compare-and-set on the revision of our last write.
//     Just before sending, the holder reads its clock (s); on success it may
//     act as owner until s + TTL − Margin ([Held.Valid]). If the set fails
//     and the entry no longer names this holder's term, it was rewritten or
//     deleted: the lease is lost at once. (If it still does, it is a write of
//     ours whose answer was lost; renewal carries on from its revision.) If
//     the cluster does not answer, the holder retries and its validity runs
//     out: the lease is suspended, Valid is false, and the holder keeps
//     renewing. A renewal that succeeds makes it valid again, from its own s,
//     as any renewal does: a compare-and-set on our last revision succeeds
//     only if nobody claimed the room since. After [Options.Suspend] without
//     success the holder gives up and [Held.Lost] closes. (A cluster that
//     lost a node elects new leaders for a few seconds; every holder whose
//     renewals went to a dead leader is suspended, not stopped, meanwhile.)
//   - Release: Valid turns false, then the entry is deleted if it still has
//     our revision, so another node can create it at once.
//   - [Manager.WatchLapsed] watches the whole bucket and reports rooms whose
//     entry stayed unchanged for a TTL, or was deleted; since the watch saw
//     the entry when it was written, the Claim that follows needs no wait.
//   - Seize: a compare-and-set on the revision just read, with no wait,
//     for a room whose holder is known dead (its process's connections to
//     the cluster closed: a killed process's do at once, a paused one's do
//     not). Its rooms run again as soon as the cluster answers, not a TTL
//     later.
//
// The term, [Held.Token], is the revision of the write that claimed the
// lease; it stays the same across renewals and is larger for every later
// owner. It is the fencing token the store tags appends with.
//
// # Why two nodes are never both valid
//
// Each node only subtracts readings of its own monotonic clock, so skew
// between clocks does not matter; their rates may differ from real time by
// at most a factor 1±ρ. Take holder H whose last successful renewal (or
// claim) was sent at real time s, and the first node C to take the room over
// after it. C's compare-and-set succeeds only on the latest revision, which
// H (or a write of H's whose answer it never got) wrote at some real time
// w ≥ s. C first saw that revision after it was written, at o ≥ w, and sends
// its set no earlier than TTL later on its clock: at real time at least
// o + TTL/(1+ρ). H's Valid is false from real time at most
// s + (TTL−Margin)/(1−ρ). Since o ≥ s, H stops strictly before C starts when
//
//	Margin > TTL · 2ρ/(1+ρ)
//
// The default Margin, TTL/10, covers ρ up to about 5%; real clocks drift by
// parts per million. Whatever the delays, a set that arrives late only fails;
// and an answer that comes late only shortens the holder's validity, as s
// is taken before the request leaves.
//
// Valid is checked before a move is accepted, but the move's append reaches
// the store a little later, possibly after a takeover. The store closes that
// gap: appends carry the expected last sequence of the room's log, so a late
// append from the old owner lands before the new owner reads the log (and is
// replayed), or between that read and the new owner's first append (which is
// then refused: the new owner stops the room and lets the lease go, and the
// room is taken over again from the whole log), or is refused. Appends
// tagged with Token therefore never go down in a room's log.
//
// # Seizing
//
// Seize gives the proof above up for the seized room: if its holder lived
// after all (its connections were cut, not closed by its death), both are
// valid until the holder's next renewal fails on the rewritten entry, at
// most Renew later, or its validity runs out. The log's fencing alone then
// keeps one history: the holder's late moves are replayed by the new owner
// or refused, as above. A paused holder's connections stay open, so it is
// not seized: after a pause over TTL − Margin its Valid is false when it
// wakes, whoever took its rooms.
//
// # Liveness and cost
//
// A room whose holder dies is free TTL after its last renewal as seen by a
// watching node, at most TTL + Renew after the death. Each held room costs
// one KV write per Renew. Claim on a live lease takes a TTL to answer.
package lease
