package plain

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/playnow"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/tui"
)

// tellPlace tells presence where this session is (tui.Whereabouts).
func (p *plain) tellPlace() {
	if p.room == nil || p.upd.Room != p.room.Code() {
		if p.room == nil {
			p.where.Tell(p.app.Games, nil)
		}
		return
	}
	p.where.Tell(p.app.Games, &p.upd)
}

// friends says the player's friends and where each is, and the requests
// waiting for an answer ("accept" answers the newest, as its notice
// says). A guest is told a key brings friends.
func (p *plain) friends() {
	th := p.th
	if p.app.Friends == nil || p.s.Player.Guest {
		p.say(th.T("friends.err.guest"))
		return
	}
	l, err := p.app.Friends.Lists(p.s.Player)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	if len(l.Friends) == 0 {
		p.say(th.T("ui.friends.none"), th.T("plain.friends.how"))
	}
	for _, f := range l.Friends {
		st, ok := p.where.Friend(f.ID)
		p.say(f.Name + ": " + tui.WhereText(th, p.app.Games, l.Status(f.ID, st), ok))
	}
	for _, a := range l.Askers {
		p.say(th.T("friends.notice.asks", game.Text("Player", a.Name)))
	}
}

// playNow sits the player at a table of the game named that waits for
// players (package playnow), or opens one with the game's usual
// settings, as "ssh -t host play GAME" does on the full screen.
func (p *plain) playNow(name string) {
	g, ok := p.gameNamed(name)
	if !ok {
		p.say(p.th.T("ui.play.no_game", game.Text("Game", sanitize.Line(name, 20)), game.Text("Games", p.app.Games.IDs())))
		return
	}
	friend := func(id string) bool { _, ok := p.where.Friend(id); return ok }
	if code, ok := playnow.Pick(p.app.Hub.List(), g.Game.ID(), p.s.Player.ID, friend); ok {
		if r := p.app.Hub.Room(code); r != nil {
			p.sit(r, false)
			return
		}
	}
	spec, err := g.BuildTable(g.FormDefaults())
	if err != nil {
		p.say(p.th.Err(err))
		return
	}
	r, err := p.app.Create(g, spec, p.s.Player)
	if err != nil {
		p.say(p.th.Err(err))
		return
	}
	p.sit(r, false)
}
