package plain

import (
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Notices in plain mode: each is said once as it comes, with the
// terminal's bell, and with the command that acts on it; "accept" does
// what the newest live notice offers (joins the table an invitation
// names), wherever the player is.

// onNotices says the notices that came (those of players the session
// ignores or blocks are dropped unseen, and so are settings: plain mode
// sends no desktop notifications).
func (p *plain) onNotices(ns []notice.Notice) {
	p.app.LoadLists(p.s.Player, &p.lists)
	kept := ns[:0:0]
	for _, n := range ns {
		if n.Setting() {
			continue
		}
		if n.From != "" && (p.lists.Has(tui.IgnoreList, n.From) || p.lists.Has(tui.BlockList, n.From)) {
			continue
		}
		kept = append(kept, n)
	}
	now := time.Now()
	rang := p.notes.Add(kept, now)
	for _, n := range kept {
		if n.Gone {
			continue
		}
		line := p.th.Msg(n.Text)
		if tui.NoticeActs(n.Act) {
			line += " " + p.th.T("plain.notice.accept")
		}
		p.say(line)
	}
	if rang {
		p.ed.print("\a")
	}
}

// accept does what the newest live notice offers.
func (p *plain) accept() {
	var n notice.Notice
	live := p.notes.Live(time.Now())
	for i := len(live) - 1; i >= 0; i-- {
		if tui.NoticeActs(live[i].Act) {
			n = live[i]
			break
		}
	}
	if n.ID == "" {
		p.say(p.th.T("plain.notice.none"))
		return
	}
	p.notes.Remove(n.ID)
	switch n.Act.Verb {
	case notice.VerbJoin, notice.VerbWatch:
		r := p.app.Hub.Room(n.Act.Arg)
		if r == nil {
			p.say(p.th.T("ui.notice.no_table", game.Text("Code", n.Act.Arg)))
			return
		}
		p.leaveTable()
		p.sit(r, n.Act.Verb == notice.VerbWatch)
	case notice.VerbFriend:
		if err := p.app.AcceptFriend(p.s.Player, n.Act.Arg); err != nil {
			p.say(p.th.Err(err))
			return
		}
		p.say(p.th.T("ui.friends.accepted"))
	}
}

// leaveTable detaches from the table this session is at, keeping the
// seat, as "leave" does.
func (p *plain) leaveTable() {
	if p.room == nil {
		return
	}
	_ = p.room.Detach(p.box) // a stopped room has nobody to tell
	p.room, p.upd = nil, table.Update{}
	p.setScreen(nil) // and what it could do: the next table asks its own screen
	p.tellPlace()
}
