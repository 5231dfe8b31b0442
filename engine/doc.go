// Package engine holds what every game shares: the Game interface the server
// talks to, seats, audience-tagged events, and the room actor that owns one
// table's state.
//
// Rules packages (engine/grizzled, engine/werewolf) are pure: state + action
// gives a new state and events, randomness comes from a seed kept in the
// state, and time arrives only as an action. They do no I/O and start no
// goroutines. The room actor is the only place where a table's state lives
// at run time; sessions talk to it through a non-blocking inbox and hear back
// through one-slot mailboxes, so a slow client never stalls a table.
package engine
