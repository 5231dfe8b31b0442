// Package grizzbot plays The Grizzled for seats that have no person in them.
//
// # Levels
//
//   - "easy": a rule-based policy. It picks an intensity from the cards
//     the team already holds, plays the card that leaves No Man's Land the
//     most open, never plays a card that makes a third threat (nor a trap
//     card whose draw is likely to), uses its lucky charm and speeches when
//     they avert a failure or clear cards, withdraws when nothing safe is
//     left, answers speeches by discarding its most dangerous matching
//     card, supports the most hurt teammate, and spends benefits and Merry
//     Christmas where hard-knock weight is most dangerous. It answers in
//     microseconds.
//   - "strong": determinization and Monte Carlo. For each sample it draws
//     the hidden cards and tiles consistently with the seat's view
//     (grizzled.Determinize), plays every candidate action in that sample
//     and then the rest of the game with the easy policy for every seat,
//     and picks the action with the best average outcome. The budget is a
//     number of samples with an optional time cap; without a time cap the
//     choice depends only on the view and the seed.
//
// # What the bots see
//
// A bot's Act receives an game.View and type-asserts it to
// grizzled.SeatView (a value or a pointer): it never receives a State, so
// it knows exactly what the seat's screen shows. Determinization builds
// full states from that view alone. When a view offers a decision the bot
// does not recognise, it answers with one of view.Legal.
//
// # What this package does not do
//
// It does not talk (table talk rules of spec §7 concern people), does not
// time out (the room actor decides when to ask a bot), and keeps no memory
// between calls: every decision is made from the view it is given.
package grizzbot
