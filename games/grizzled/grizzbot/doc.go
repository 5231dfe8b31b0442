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
//     microseconds. Its parameters depend on the table's size.
//   - "strong": determinization and Monte Carlo. For each sample it draws
//     the hidden cards and tiles consistently with the seat's view
//     (grizzled.Determinize), plays every candidate action in that sample
//     and then the game on with the easy policy (its parameters tuned for
//     the table's size) for every seat, and picks the action with the best
//     average outcome. The budget is a
//     number of samples with an optional time cap; without a time cap the
//     choice depends only on the view and the seed. The level's budget
//     depends on the table's size (DefaultTuned): how many missions a
//     playout looks ahead before the value model judges, the samples, and
//     whether the support tile is searched too.
//
// # The coach
//
// Assess turns the same search on a decision already made: every legal
// action is played out in the same determinizations of the deciding
// seat's view, and the move made is compared with the best, each with the
// team's chances and a 95% interval (Estimate), the difference paired.
// ReviewGame does it for every decision of the people in a recorded game;
// Hint is the search at the table, for the seat asking.
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
