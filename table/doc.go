// Package table runs the tables: one actor goroutine per room owns its game
// state (Room), a Hub finds rooms by code and tells lobbies when the list
// changes, and a Journal port makes every accepted action durable before
// anyone sees its effect. This is where time, goroutines and I/O live; the
// rules themselves are in the pure game packages (see package game).
//
// Sessions talk to a room through a non-blocking inbox (Submit and its
// wrappers answer ErrBusy rather than wait) and hear back through one-slot,
// newest-wins mailboxes (Mailbox), so a slow or dead client never stalls a
// table. Replay and ReplayEach rebuild a game from its setup, seed and log:
// after a restart, for history screens and in tests.
package table
