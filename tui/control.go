package tui

import "github.com/bivouac-ssh/bivouac/game"

// Control is the server speaking to one session from outside its keys: an
// admin's notice to everyone, or the end of the session (a ban, a kick).
// Send it into a full-screen program with Program.Send, or to a plain
// session through plain.Session.Control.
type Control struct {
	// Notice is shown as the session's notice, in the lobby or at a table.
	Notice game.Msg
	// End ends the session with this line left on the player's terminal,
	// given back whole as at any other goodbye.
	End game.Msg
	// GiveUpSeat: with End, the session leaves its table for good (a bot
	// takes a seat in play, a waiting room frees it) instead of keeping the
	// seat as a lost connection does.
	GiveUpSeat bool
}

// control applies c to the full-screen session; it reports whether the
// program should quit.
func (m *root) control(c Control) bool {
	if !c.End.IsZero() {
		m.leaveRoom(c.GiveUpSeat)
		m.closed = m.th.Msg(c.End)
		return true
	}
	if !c.Notice.IsZero() {
		m.notice = m.th.Msg(c.Notice)
	}
	return false
}
