package uikit

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// A game may bring a coach that reviews its finished games: the server
// replays the log into a ReviewGame, the game's Reviewer rates it, and the
// review pages draw the Review it made. Code outside the game's packages
// sees only these types.

// Reviewer is a game's post-game coach.
type Reviewer interface {
	// Review rates the people's decisions in g. It reports its progress,
	// and stops with an error when progress returns false.
	Review(g ReviewGame, progress func(done, total int) bool) (Review, error)
	// Encode is the review as the store keeps it.
	Encode(r Review) ([]byte, error)
	// Decode reads what Encode wrote; current is false for a review an
	// older coach made, which is made again.
	Decode(raw []byte) (r Review, current bool, err error)
}

// ReviewGame is a finished game as its coach replays it.
type ReviewGame struct {
	Setup  game.Setup
	Seed   uint64
	Moves  []ReviewMove         // the game's actions in order (chat left out)
	Person func(game.Seat) bool // a person sat there: only people are rated
	// Bot is the bot level that played a seat ("" for a person): how
	// strong the team was is part of its chances.
	Bot   func(game.Seat) string
	Hints bool // the table gave hints: a review may weigh them
}

// ReviewMove is one logged action: Action as the game encoded it.
type ReviewMove struct {
	Seat   game.Seat
	Action []byte
	ByBot  bool // a bot made it in the person's place: nobody to coach
}

// Stepped is a Review whose lines name moments of the game, so that the
// review page can open the replay there: LinesAt draws what Lines does,
// with each line's moment (the number of actions before the decision it
// is about; -1 for a line about none).
type Stepped interface {
	LinesAt(th *Theme, seats []table.SeatInfo, width int, plain bool) (lines []string, at []int)
}

// Review is a coach's reading of one finished game.
type Review interface {
	Won() bool  // the reader's side won
	Rated() int // the decisions rated
	// Lines draws the review for a terminal width wide; plain asks for
	// sentences a screen reader reads instead of charts.
	Lines(th *Theme, seats []table.SeatInfo, width int, plain bool) []string
}
