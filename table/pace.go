package table

import (
	"errors"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// Pace is how fast a table plays: live, its players at their terminals
// together (the turn clock and the game's own timers in seconds), or by
// correspondence, over hours or days, each player moving when they can.
type Pace struct {
	// Correspondence: the table is played over days. Its log stamps each
	// entry with its time, and its deadlines are derived from the log
	// (deadline.go); it waits for players who are away, notifies them
	// (RoomConfig.OnTurn), and is never closed for being deserted.
	Correspondence bool `json:"correspondence,omitempty"`
	// Decision is how long each decision may take (The Grizzled: an hour
	// to three days); past it the seat's stand-in bot decides. 0: the
	// game's own timed steps are its deadlines (the Werewolves' phases,
	// in hours by its options). A timed step of the game is never shorter
	// than Decision at such a table.
	Decision time.Duration `json:"decision,omitempty"`
}

// Decisions are the decision windows a correspondence table may have.
var Decisions = []time.Duration{time.Hour, 12 * time.Hour, 24 * time.Hour, 72 * time.Hour}

// Limits of correspondence play (docs/ARCHITECTURE.md, "Security limits").
const (
	// MissesToBot is how many deadlines in a row a seat may miss before
	// its stand-in bot plays the seat until its player acts again (each
	// miss before that, the bot makes that one decision).
	MissesToBot = 3
	// OverdueGrace is how long, when a timed step's deadline passes, the
	// stand-in bots have to decide for the seats that did not before the
	// step ends without them.
	OverdueGrace = 30 * time.Second
	// CorrespondenceIdle is how long a correspondence table that has not
	// started waits for its players with nobody at it (a live one waits
	// RoomConfig.IdleClose).
	CorrespondenceIdle = 7 * 24 * time.Hour
)

// ErrKeyedOnly: a guest may not sit at a correspondence table (it lasts
// longer than a guest's code is kept, and no notice reaches a guest who
// is away).
var ErrKeyedOnly = game.NewError("table.err.keyed_only")

// ErrTooManyCorrespondence wraps a MaySit refusal for a player at their
// limit of correspondence tables.
var ErrTooManyCorrespondence = errors.New("table: too many correspondence tables")

// Turn is what a correspondence table tells RoomConfig.OnTurn each time
// the decision it waits on changes (and when it is restored): who it
// waits on now, and until when.
type Turn struct {
	Room    string    // the code
	Since   time.Time // when the table was made: the code names it until it is drawn again
	Game    string
	Title   game.Msg
	Private bool
	// Decision numbers the decision (actions applied so far).
	Decision int
	// Deadline is when it must be made (zero: none, the table waits), and
	// Window its whole time.
	Deadline time.Time
	Window   time.Duration
	// Waiting are the people it waits on now; Done those it waited on
	// before and no longer does.
	Waiting []TurnSeat
	Done    []string
}

// TurnSeat is one person a correspondence table waits on.
type TurnSeat struct {
	Seat     game.Seat
	Identity string
	Name     string
	// Here: a session of theirs is at the table (they see it is their move).
	Here bool
}
