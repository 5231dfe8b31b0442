// Package werewolf is the rules engine of The Werewolves of Millers Hollow
// (Wilkołaki), after the Polish rulebook and the project's spec
// (RULES-werewolves.md). The server is the narrator.
//
// # Usage
//
// Game implements engine.Game. The room actor:
//
//  1. creates a table with Game.New(setup, seed): setup.Names are the seats
//     (8..18, or 5..7 with Options.SmallTable), setup.Options is Options as
//     JSON (DecodeOptions fills missing fields with DefaultOptions);
//  2. calls Apply for each seat's Action; a rejected action returns a typed
//     error (ErrNotAllowed, ErrTargetDead, …) readable by the player, leaves
//     the state unchanged and yields no events;
//  3. after every change calls Timer and, when it expires with the same ID,
//     submits Timer.Action (a KindTick) as engine.System. Time is an input;
//     a stale tick is ignored without error;
//  4. delivers each Event only to its Audience; chat goes through Say
//     (channels "table", "wolves", "dead", "relay");
//  5. asks Waiting which seats bots must act for, and publishes View(seat)
//     (a SeatView, fresh, never aliasing the state) to every seat and
//     spectator.
//
// Bots live in the wolfbot subpackage and see only SeatView.
//
// # Anti-leak
//
// Every night step of a card in the public deck list runs its full window
// (strict timing), whether its holder is alive, dead or in the middle;
// narration is the same for everyone; any action a seat may not take fails
// with ErrNotAllowed whatever the hidden reason. The little girl's relay is
// anonymised: no wolf's name, seat or label ever reaches her.
//
// # What it does not do
//
// No clocks, goroutines or I/O. It does not decide bot takeover, presence
// or abandonment (the actor submits KindAbandon as System), nor filter
// replays: the actor must publish the unfiltered log only after the game.
package werewolf
