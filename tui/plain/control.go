package plain

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/tui"
)

// control applies c to the plain session; it reports whether the session
// ends.
func (p *plain) control(c tui.Control) bool {
	if !c.End.IsZero() {
		if p.room != nil && c.GiveUpSeat {
			_ = p.room.Leave(p.box) // the session ends either way
			p.room = nil
		}
		p.say(p.th.Msg(c.End))
		return true
	}
	if !c.Notice.IsZero() {
		p.say(p.th.Msg(c.Notice))
	}
	return false
}

// plainMOTD says the message of the day, if there is one.
func (p *plain) plainMOTD() {
	if p.app.MOTD == nil {
		return
	}
	if t := p.app.MOTD(p.th.Lang()); t != "" {
		p.say(strings.Split(t, "\n")...)
	}
}
