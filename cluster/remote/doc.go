// Package remote lets a session on one node of a cluster sit at a table
// whose actor runs on another, over NATS: the owner node serves the room
// (Serve, an Owner), and the session's node holds a Handle, a
// table.RoomHandle like the *table.Room a session at a local table holds.
// The screens cannot tell the two apart.
//
// # Protocol
//
// Requests about room CODE go to bivouac.room.CODE.OP, a JSON request
// (wire.go), where OP is one of summary, join, act, act-now, say, leave,
// detach, step-away, start, set-bot, pick, name-first, ping, resync. The
// calls a local room answers before the actor acts (act, say, pick,
// name-first, leave, detach, step-away, resync) are published without
// waiting, so a key press never waits on the network; a refusal comes back
// on the session's subject and shows as the seat's notice, as it does
// locally. The calls that wait locally (join, act-now, start, set-bot)
// and summary and ping are NATS requests; their refusals come back as the
// same errors (table.ErrBusy, table.ErrNotHost, game.ErrNotYourTurn, …:
// table.ToWire/FromWire), so errors.Is works as it does locally. Nobody
// answering (no owner) is table.ErrClosed; no answer within
// Options.CallTimeout is table.ErrBusy.
//
// A join names a session ID the joining node made: 128 bits from
// crypto/rand, never a seat number or a player's identity. The owner
// seats the session with a mailbox of its own and publishes that
// mailbox's Updates on bivouac.session.ID, and only there: the owner's
// actor fills the mailbox (one slot, newest wins) and a forwarding
// goroutine per session encodes and publishes, so a slow or dead remote
// never stalls the table, it only skips stale views. Every later request
// names the session ID, which is what lets it act for the seat; a request
// naming an ID the owner does not know is table.ErrNotSeated.
//
// An Update travels as JSON with the view in the game's own encoding
// (game.ViewCodec: Grizzled and Werewolves; the conformance suite checks
// every view round-trips) and its two event lists as deltas: deliveries
// are numbered per session, and carry only the events the session has not
// had (delta.go), with the room's Summary, which the Handle keeps for the
// screens. A session that misses a delivery asks for the whole Update
// again (resync).
//
// # Who may publish what, and what a node may learn
//
// Only the owner publishes on bivouac.session.*; only sessions' nodes
// publish on bivouac.room.*; a seat's private hand is in its views and
// log, which travel only on its own session's subject, from the owner to
// the one node serving that session (no other node subscribes to it, so
// the NATS servers route it nowhere else). NATS permissions do not
// separate the nodes further, on purpose: every node connects with the
// cluster's one credential (cluster/natsnode), and that credential also
// reads JetStream, where every room's seed and action log are, from which
// every hand follows. A node is therefore trusted with every table; what
// this package guarantees is that no session is sent, and no node is
// routed, another seat's view, and that nobody can act for a seat without
// the session ID its own node made (unguessable: a subject cannot be
// found by counting seats or by knowing a player's name). Anyone without
// the credential cannot connect at all.
//
// # Liveness
//
// Each session's node pings the owner every Options.Keepalive. When the
// owner is gone (nobody answers for the room: its node died, or it no
// longer serves it), no longer knows the session, gets no answer three
// times in a row, or says the table left it (table.Moved, Restarting),
// the session stays at the table: it is told the table moved, one
// moment, and is seated again, under a new session ID, by whichever node
// runs the table next (the new owner replays the log, so the seat is the
// same), with no join of the player's own; its calls meanwhile are
// table.ErrBusy. Only when no node serves the table within
// Options.ResumeWithin, or this node lost its own NATS connection, is the
// session told its table closed (table.Moved: the seat is saved, and
// joining again puts the player back). The owner detaches a session it
// has not heard from for five keepalives: its seat shows away, as when a
// local connection drops.
package remote
