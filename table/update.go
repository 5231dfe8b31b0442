package table

import "bivouac/game"

// SeatInfo is what everyone at a table sees of who sits where.
type SeatInfo struct {
	Seat      game.Seat `json:"seat"`
	Name      string    `json:"name"`
	Bot       string    `json:"bot,omitempty"` // bot level when a bot plays the seat
	Connected bool      `json:"connected"`     // a human session is attached now
	Veteran   bool      `json:"veteran,omitempty"`
}

// Update is what the room actor publishes to one session: the newest view of
// the table for that session's seat. It is self-contained (it carries the
// recent log too), so a mailbox may drop an older Update for a newer one
// without losing anything the screen needs.
type Update struct {
	Room    string       `json:"room"`    // room code
	Title   string       `json:"title"`   // game title and variant, for the header
	Game    string       `json:"game"`    // Game.ID()
	Seat    game.Seat    `json:"seat"`    // the viewer's seat, or Spectator
	Seq     int          `json:"seq"`     // actions applied; a key pressed on Seq n never applies to n+1
	View    game.View    `json:"view"`    // the game's own view type for this seat
	Log     []game.Event `json:"log"`     // recent events this seat may see, oldest first
	Seats   []SeatInfo   `json:"seats"`   // who sits where
	Notice  string       `json:"notice"`  // why this seat's last action was refused ("" if none)
	Started bool         `json:"started"` // false while the table waits for players
	Over    bool         `json:"over"`
	Result  *game.Result `json:"result,omitempty"`
	Closed  string       `json:"closed,omitempty"` // non-empty: the room is gone, and why
	// Deadline is the time left on the current timer in whole seconds when
	// this update was made (0: none). Screens count down locally while visible.
	Deadline int `json:"deadline,omitempty"`
}
