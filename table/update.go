package table

import "github.com/bivouac-ssh/bivouac/game"

// SeatInfo is what everyone at a table sees of who sits where.
type SeatInfo struct {
	Seat      game.Seat `json:"seat"`
	ID        string    `json:"id,omitempty"` // the seated human's identity (for a session's own lists: who it ignores); "" for a bot or an open seat
	Name      string    `json:"name"`
	Bot       string    `json:"bot,omitempty"` // bot level when a bot plays the seat
	Connected bool      `json:"connected"`     // a human session is attached now
	Badge     Badge     `json:"badge,omitempty"`
	Pick      string    `json:"pick,omitempty"`  // the id of what the seat chose before the game (game.Prelude)
	First     bool      `json:"first,omitempty"` // named to begin
}

// Update is what the room actor publishes to one session: the newest view of
// the table for that session's seat. It is self-contained (it carries the
// recent log too), so a mailbox may drop an older Update for a newer one
// without losing anything the screen needs.
type Update struct {
	Room  string   `json:"room"`  // room code
	Title game.Msg `json:"title"` // game title and variant, for the header
	Game  string   `json:"game"`  // Game.ID()
	// Options are the table's (RoomConfig): its aids (a guided mission's
	// coach, hints) and the rest of its setup. Shared: read only.
	Options
	Seat game.Seat     `json:"seat"` // the viewer's seat, or Spectator
	Seq  int           `json:"seq"`  // actions applied; a key pressed on Seq n never applies to n+1
	View game.View     `json:"view"` // the game's own view type for this seat
	Log  []*game.Event `json:"log"`  // recent events this seat may see, oldest first; shared: read only
	// LogEnd counts the events ever filed in this seat's log since the room
	// started (or was restored): the last of Log is event LogEnd. A reader
	// that must not miss or repeat a line (plain mode) prints the new ones.
	LogEnd int `json:"log_end,omitempty"`
	// Public is the table's recent public events, the same for every seat:
	// what a screen that must look alike for everyone draws (a sleeping
	// village), kept apart from Log so a seat's private lines never push
	// public ones out of it. Shared between the sessions: read only.
	Public []*game.Event `json:"public,omitempty"`
	Seats  []SeatInfo    `json:"seats"`  // who sits where
	Notice game.Msg      `json:"notice"` // why this seat's last action was refused (zero if none)
	// Info is a line about the table itself for this seat, not a refusal:
	// it moved to another node of the cluster, one moment (cluster/remote).
	Info    game.Msg     `json:"info,omitempty"`
	Started bool         `json:"started"` // false while the table waits for players
	Over    bool         `json:"over"`
	Result  *game.Result `json:"result,omitempty"`
	Closed  CloseReason  `json:"closed,omitempty"` // not Open: the room is gone, and why
	// Deadline is the time left on the current timer in whole seconds when
	// this update was made (0: none). Screens count down locally while visible.
	Deadline int `json:"deadline,omitempty"`
}

// CloseReason says why a room stopped talking to a session. Screens say it
// in the player's words (Key).
type CloseReason uint8

const (
	Open          CloseReason = iota // not closed
	Elsewhere                        // the player sat down at this table from another terminal
	Restarting                       // the server is shutting down; every seat is saved
	SaveFailed                       // the last move could not be saved; the table stopped there
	InternalError                    // the table hit a bug and closed; the game so far is saved
	Abandoned                        // the table stood empty too long
	Moved                            // this node lost the table's lease: another node of the cluster runs it now
	ClosedByAdmin                    // an admin ended the table (admin close); it is not restored
	Removed                          // the host removed this player before the game began
	Unconfirmed                      // the store did not confirm the last move (it may hold it); the table stopped there
)

// Key is the catalog key of the reason, for screens to say it in the
// player's language.
func (c CloseReason) Key() string {
	switch c {
	case Elsewhere:
		return "table.closed.elsewhere"
	case Restarting:
		return "table.closed.restarting"
	case SaveFailed:
		return "table.closed.save_failed"
	case InternalError:
		return "table.closed.internal"
	case Abandoned:
		return "table.closed.abandoned"
	case Moved:
		return "table.closed.moved"
	case ClosedByAdmin:
		return "table.closed.by_admin"
	case Removed:
		return "table.people.closed_removed"
	case Unconfirmed:
		return "table.closed.unconfirmed"
	}
	return "table.closed.open"
}
