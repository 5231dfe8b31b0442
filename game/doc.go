// Package game is the contract between the rules of a game and everything
// else: seats, audience-tagged events, setups, results, timers and bots, and
// the Game interface the table actor, persistence, replays and bots use.
//
// It and the rules packages under it (games/grizzled, games/werewolf and
// their bots) are pure: state + action gives a new state and events,
// randomness comes from a seed kept in the state, and time arrives only as
// an action. They do no I/O, read no clock and start no goroutines; they
// import nothing outside the standard library, game/ itself and package
// words, whose messages they speak in
// (TestRulesImportNothingButTheStandardLibrary checks it). Every game
// passes the conformance suite in game/gametest.
package game
