// Package werewolf is the rules engine of The Werewolves of Millers Hollow
// (Wilkołaki), after the Polish rulebook and the project's spec
// (RULES.md in this folder, whose section numbers comments and tests cite). The
// server is the narrator.
//
// # Usage
//
// Game implements game.Game (ID "werewolf"). The room actor:
//
//  1. creates a table with Game.New(setup, seed): setup.Names are the seats
//     (8..18, or 5..7 with Options.SmallTable [NR]), setup.Options is
//     Options as JSON (DecodeOptions fills missing fields from
//     DefaultOptions; Options.Encode writes it);
//  2. calls Apply for each seat's Action. A refused action returns an error
//     wrapping one of the exported sentinels (ErrNotAllowed, ErrTargetDead,
//     ErrMustSwap, …) whose message a player can read; the state is then
//     unchanged and there are no events. Any action a seat may not take now
//     fails with the same ErrNotAllowed whatever the hidden reason;
//  3. after every change calls Timer: its ID is the PhaseSeq, so the running
//     countdown is kept while the ID is unchanged. On expiry it submits
//     Timer.Action (KindTick with Seq) as game.System; a tick whose Seq is
//     stale is ignored without error or event. KindAbandon as System ends
//     the game with no winner;
//  4. delivers each Event only to its Audience. Chat goes through Say, which
//     picks the channel: "table" (the living by day; everyone after the
//     game), "wolves" (a living werewolf during the wolves' step, read by
//     the living wolves and the dead watchers), "dead" (the graveyard only),
//     and "relay" (the little girl's anonymised glimpses: From is -1 and
//     every werewolf's name is replaced by "[a werewolf]"). A line starting
//     with WolvesPrefix ("/w ") asks for the wolves' channel explicitly;
//  5. asks Waiting which seats have a decision open (for bots only: never
//     show it, it follows hidden roles) and publishes View(seat).
//
// # Actions
//
// One Action struct; Kind says what it is and which fields count:
// thief_take{Target: slot 0/1}, thief_keep, cupid_link{Target, Second},
// seer_inspect{Target}, wolf_select{Target}, wolf_clear, wolf_done (fast
// nights only), peek{On},
// witch_heal, witch_poison{Target}, witch_done, hunter_shoot{Target},
// hunter_hold, successor{Target}, stand{On}, ready{On}, ballot{Target},
// abstain, tiebreak{Target}, say{Text}; System: tick{Seq}, abandon.
// Legal(seat) lists the seat's possible actions (chat aside); every one of
// them is accepted. SeatView.Describe labels them for menus.
//
// # Views
//
// SeatView is a fresh value that never aliases the state. Every seat sees:
// phase (Phase.Title, Phase.Narration), night/day, the phase's window in
// seconds (Deadline), the public deck list, each player's name, life,
// sheriff badge, revealed card and causes of death, vote progress
// (VotesCast/Voters) and revealed ballots (Votes), and at the end
// everything (Original and final cards, teams, winners, lovers, middle
// cards, the night log). Privately: its own Card; wolves their pack
// (Wolves), live selections (Choices) and victim; the seer her Visions; the
// witch her potions and tonight's victim; lovers their Partner, cupid the
// Lovers; the thief the middle cards he saw; the little girl Peeking,
// Caught and Relayed; and its Legal actions with a Prompt. A dead seat
// with a pending last-breath decision (hunter, sheriff) keeps a living
// player's view; other dead seats see everything when Options.DeadSeeAll.
// game.Spectator gets public facts only.
//
// # Anti-leak
//
// Every night step of a card in the public deck list runs its full window
// (strict timing), whether its holder is alive, dead or in the middle;
// narration is the same for everyone; the witch's "no victim" text and the
// dawn's "Nobody died last night." do not depend on why. Randomness
// (shuffle, little-girl relay and catch, timeout picks) comes from the PCG
// in the state, so a replay of the log is exact.
//
// # What it does not do
//
// No clocks, goroutines or I/O. Presence, bot takeover, abandonment timing
// and replay filtering are the actor's. Say cannot change the state, so a
// wolves' chat line relayed through Say never gets the little girl caught
// (its relay draw is a hash of the state and the line); a KindSay action
// applied with Apply is logged and uses the state's RNG, catch included.
package werewolf
