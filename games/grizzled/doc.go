// Package grizzled is the rules engine of The Grizzled (Les Poilus, Wiarusi,
// Братья по оружию), base game, for 2 to 5 players, as specified in
// RULES.md in this folder. Rule IDs of the spec (A4, SU-5, G-6, ...) are cited in
// comments and test names.
//
// # What it does
//
// A *State holds one whole game, hidden information included: hands, both
// piles in order, support tiles, the seeded RNG (math/rand/v2 PCG, kept in
// the state so that replaying the action log from the seed reproduces the
// state byte for byte). Every change goes through Apply:
//
//	s, events, err := grizzled.New(setup, seed)       // setup.Names: 2..5 humans
//	events, err = s.Apply(seat, grizzled.Action{Kind: grizzled.ActIntensity, K: 3})
//
// On error the state is unchanged and there are no events; the error wraps
// one of the exported sentinels (ErrNotYourTurn, ErrNoSuchCard,
// ErrCannotWithdraw, ...) and its message is written for the player. On
// success s is updated in place (use Clone to keep a copy).
//
// Every choice the rules leave to a player is an explicit pending decision
// for one seat: the intensity (PhaseIntensity), the turn action (PhaseTurn),
// speech answers (PhaseSpeech: a window in which every eligible seat
// answers, in any order; what each chose is shown when it closes), the
// Absent-minded tile, the tile to place, the Merry Christmas target
// (PhaseDecision), and the support benefit (PhaseBenefit). Choices with one
// possible answer are taken automatically when that reveals nothing hidden
// (a single tile, a single hard knock in play); a player holding two alike
// tiles is still asked, so that observers cannot tell. Random choices (Panicked, the chaplain's tile) use the
// state's RNG. Waiting says whom the game waits on; Legal lists what a seat
// may do, and every listed action succeeds.
//
// The only timed step is the speech window: Timer returns a 45 s timer whose
// Action (ActTimeout) the room actor submits as game.System; everyone who
// has not answered then passes.
//
// Events carry an audience: public narration uses the players' names
// ("Anna plays T04 Night+Shell into No Man's Land."), and what only one seat
// learns (cards dealt, the tile placed) goes to game.Only(seat).
//
// View(seat) is the only door out for hidden information: a fresh SeatView
// (never aliasing the state) with public facts for everyone and, for the
// viewing seat only, its hand, tiles, placed tile and legal actions.
// game.Spectator gets the public view. No view holds the order of either
// pile.
//
// # For the server
//
// Game implements game.Game (ID "grizzled"). Actions travel as Action
// values; EncodeAction/DecodeAction are a compact binary form (kind byte and
// only the fields that kind reads). EncodeState/DecodeState are JSON
// snapshots (an optimisation; the log stays the source of truth), and
// DecodeState checks the card and tile invariants. Say puts chat on channel
// "table" and refuses it while Mute is in front of the speaker. CampaignStart
// and CampaignNext implement the "+2 cards per win" campaign (§6.5).
//
// # For bots
//
// Bots see SeatViews. To search, a bot turns its view into a full state with
// Determinize(view, seed) (hidden cards and tiles sampled from what the view
// does not show), then plays it forward without interfaces or events:
//
//	s := grizzled.Determinize(v, seed)
//	for {
//		if _, over := s.Over(); over { break }
//		seat := s.Waiting()[0]
//		buf = s.AppendLegal(buf[:0], seat)   // or s.Legal(seat)
//		_ = s.Step(seat, choose(buf))       // Apply without events: the fast path
//	}
//
// Also useful: Clone, WaitsOn, Counts, TurnStatus, Hand, HandSize,
// TrialsLeft, MoraleLeft, Weight, Failed, Round, Phase, Seq.
//
// # Exported API in short
//
//   - Setup and state: New(setup, seed), NewGame(names, opts, seed),
//     ParseOptions, (*State).Clone, EncodeState/DecodeState, (*State).Check.
//   - Moves: (*State).Apply (events) and (*State).Step (no events), the
//     package-level Apply/View/Legal/Waiting/Result/Clone, (*State).CheckSeq
//     (ErrStale), Timer (speech window) and ActTimeout, Say (chat).
//   - Asking: Waiting, WaitsOn, Legal, AppendLegal, TurnStatus (forced /
//     may withdraw / why not), Counts, MinIntensity, MaxIntensity, Over,
//     LossReason, Result, Phase, Round, Seq, Seats, Humans, ChaplainSeat.
//   - Cards: CardID.Code/Name/Text/Key/Kind/Threats/HasThreat/Trap/Weight,
//     named hard knocks (Wounded, Mute, ... AbsentMinded), Threat.String,
//     Tile.String/Offset, Characters.
//   - Views: SeatView (types.go) with, beyond the contract, Removed,
//     Eligible, MustWithdraw, CanWithdraw, WhyNoWithdraw, and per player
//     Arrivals and Answered.
//   - Bots: Determinize, plus Hand, HandSize, TrialsLeft, MoraleLeft,
//     Weight, Failed.
//   - Server: Game (game.Game), EncodeAction/DecodeAction/AppendAction,
//     Action.String (for logs), CampaignStart/CampaignNext.
//   - Errors: ErrNotYourTurn, ErrGameOver, ErrBadAction (the engine's),
//     ErrWrongPhase, ErrStale, ErrIntensityTooLow, ErrNoSuchCard, ErrForced,
//     ErrCharmUsed, ErrNoCharmTarget, ErrNoSpeechToken, ErrMute,
//     ErrCannotWithdraw, ErrNotMatching, ErrNoSuchTile, ErrNoSuchHardKnock,
//     ErrTooManyCards, ErrNoCharmRestore, ErrChatMuted, ErrChaplainSilent,
//     ErrNotAPlayerAction; New returns ErrPlayers or ErrOptions.
//
// # What it does not do
//
// No I/O, no clocks, no goroutines, no global mutable state: time arrives
// only as the ActTimeout action, randomness only from the seed. It does not
// check what players say in chat (revealing a hand is forbidden by the rules
// but cannot be checked), does not store campaigns (the caller keeps N and
// the veteran flag), and does not implement expansions. A State is not safe
// for concurrent use; the room actor owns it.
package grizzled
