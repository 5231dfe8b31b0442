package plain

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui"
)

// addressCommand is plain mode's "address f|m|n"; anything else says how
// to use it.
func (p *plain) addressCommand(rest string) {
	g, ok := game.ParseGender(rest)
	if !ok {
		p.say(tui.AddressLine(p.th, p.s.Player.Gender), p.th.T("plain.address.usage"))
		return
	}
	said, err := p.app.SetGender(p.th, &p.s.Player, &p.lists, g)
	if err != nil {
		p.say(p.th.Err(err))
		return
	}
	p.say(said)
}
