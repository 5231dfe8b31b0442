package table

import (
	"slices"
	"time"
)

// Options is how a table is set up: the choices of the create-a-table
// form (or a campaign, or a guided mission), one typed value from there to
// the room (RoomConfig), the lobby (Summary), each session's Update, the
// stored record (RoomRecord; both stores keep its fields as they are) and
// back at a restore or a takeover. Each type that carries it embeds it, so
// a new option is a field here, with its JSON name: set where the table is
// made, read where it takes effect, and nothing between copies it by hand.
// A stored record without the field reads it as its zero value, so the
// zero value must mean what tables did before the option.
//
// The game's own options are apart (its codec's bytes: game.Setup.Options).
type Options struct {
	Private  bool   `json:"private,omitempty"`   // not listed in the lobby; joined by its code
	BotLevel string `json:"bot_level,omitempty"` // the level of the bots that fill seats ("": none)
	// Campaign is the campaign whose next mission this table plays ("":
	// none); Allowed the identities who may sit (its members; empty:
	// anyone). RoomConfig.IsMember, when set, is asked instead.
	Campaign string   `json:"campaign,omitempty"`
	Allowed  []string `json:"allowed,omitempty"`
	// NoTakeover: no bot stands in for a player who is away (a Werewolves
	// table's choice: the seat waits); a seat given up with L still goes to
	// a bot. It overrides RoomConfig.TakeoverAfter.
	NoTakeover bool `json:"no_takeover,omitempty"`
	// AbandonAfter ends a game in progress, unfinished and with no winner,
	// once every human player has been away this long (0: it waits for
	// them, as The Grizzled does; Werewolves: 10 minutes).
	AbandonAfter time.Duration `json:"abandon_after,omitempty"`
	// TurnClock is how long a person may leave a decision before a bot
	// (BotLevel, else the easiest) makes it for them this once; after two
	// in a row a bot plays their seat until they act again. Everyone sees
	// it count down. 0: no clock. Not while the game's own timer runs.
	TurnClock time.Duration `json:"turn_clock,omitempty"`
	// Practice is a guided mission: it closes as soon as its player is
	// gone (nobody else plays at it), and its screen coaches the newcomer.
	Practice bool `json:"practice,omitempty"`
	// Hints lets a seated player ask the game's bot for advice (the
	// game's screen answers; the title says so to everyone).
	Hints bool `json:"hints,omitempty"`
	// Pace is how fast the table plays: live, or by correspondence over
	// days (deadline.go). A correspondence table has no turn clock, no
	// takeover after RoomConfig.TakeoverAfter, no AbandonAfter or
	// RoomConfig.DesertedAfter, and waits CorrespondenceIdle to start.
	Pace Pace `json:"pace,omitzero"`
}

// Equal reports whether two tables are set up alike (the lobby redraws
// only on a change it shows). TestOptionsEqualSeesEveryField fails on a
// field it leaves out.
func (o Options) Equal(p Options) bool {
	return o.Private == p.Private && o.BotLevel == p.BotLevel && o.Campaign == p.Campaign &&
		slices.Equal(o.Allowed, p.Allowed) && o.NoTakeover == p.NoTakeover && o.AbandonAfter == p.AbandonAfter &&
		o.TurnClock == p.TurnClock && o.Practice == p.Practice && o.Hints == p.Hints && o.Pace == p.Pace
}
