package plain

import (
	"context"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Plain mode's commands about other players (people.go): ignore NAME,
// unignore NAME, ignored; block NAME, unblock NAME, blocked; report NAME
// REASON; remove NAME (the host, before the game). NAME is a player at
// the table, or for unignore and unblock one on the list.

// peopleCommand answers word if it is one of these, and reports whether
// it was.
func (p *plain) peopleCommand(word, rest string) bool {
	th := p.th
	p.app.LoadLists(p.s.Player, &p.lists)
	switch word {
	case "ignore", "block":
		which := map[string]tui.RelationList{"ignore": tui.IgnoreList, "block": tui.BlockList}[word]
		if who, ok := p.atTable(rest); ok {
			p.say(p.app.SetRelation(th, p.s.Player, &p.lists, which, tui.Person{ID: who.ID, Name: who.Name}, true))
			p.remute()
		}
	case "unignore", "unblock":
		which := map[string]tui.RelationList{"unignore": tui.IgnoreList, "unblock": tui.BlockList}[word]
		if who, ok := p.onList(which, rest); ok {
			p.say(p.app.SetRelation(th, p.s.Player, &p.lists, which, who, false))
			p.remute()
		}
	case "ignored":
		p.sayList("ui.people.list.ignored", "ui.people.list.ignored_none", p.lists.Ignored)
	case "blocked":
		p.sayList("ui.people.list.blocked", "ui.people.list.blocked_none", p.lists.Blocked)
	case "report":
		name, reason, _ := strings.Cut(rest, " ")
		if strings.TrimSpace(reason) == "" {
			p.say(th.T("plain.people.report_usage"))
			return true
		}
		if who, ok := p.atTable(name); ok {
			p.say(p.app.FileReport(th, p.s.Player, &p.upd, who, reason, &p.lastReport, time.Now()))
		}
	case "remove":
		if who, ok := p.atTable(rest); ok {
			ctx, cancel := context.WithTimeout(p.s.Ctx, table.CallPatience)
			defer cancel()
			if err := p.room.Remove(ctx, p.box, who.Seat); err != nil {
				p.say(th.Err(err))
			} else {
				p.say(th.T("ui.people.removed_said", game.Text("Player", who.Name)))
			}
		}
	default:
		return false
	}
	return true
}

// atTable is the player called name at this session's table, or says why
// there is none.
func (p *plain) atTable(name string) (table.SeatInfo, bool) {
	name = strings.TrimSpace(name)
	switch {
	case p.room == nil:
		p.say(p.th.T("plain.people.at_table"))
	case name == "":
		p.say(p.th.T("plain.people.usage"))
	default:
		if who, ok := tui.PersonNamed(&p.upd, p.s.Player.ID, name); ok {
			return who, true
		}
		p.say(p.th.T("ui.people.no_such", game.Text("Name", sanitize.Line(name, 40))))
	}
	return table.SeatInfo{}, false
}

// onList is the player called name on the list which, else at the table.
func (p *plain) onList(which tui.RelationList, name string) (tui.Person, bool) {
	want := sanitize.Fold(strings.TrimSpace(name))
	for _, q := range *p.lists.List(which) {
		if want != "" && sanitize.Fold(q.Name) == want {
			return q, true
		}
	}
	if p.room == nil && want != "" {
		p.say(p.th.T("ui.people.not_listed", game.Text("Player", sanitize.Line(name, 40))))
		return tui.Person{}, false
	}
	who, ok := p.atTable(name)
	return tui.Person{ID: who.ID, Name: who.Name}, ok
}

// sayList says one of the session's lists, by name (none: its own
// sentence, as "nobody" reads wrong in a list's place in some languages).
func (p *plain) sayList(key, none string, list []tui.Person) {
	if len(list) == 0 {
		p.say(p.th.T(none))
		return
	}
	names := make([]string, len(list))
	for i, q := range list {
		names[i] = q.Name
	}
	p.say(p.th.T(key, game.Text("Names", strings.Join(names, ", "))))
}

// remute gives the screen the update again, with or without the chat of
// the players now ignored.
func (p *plain) remute() {
	if p.screen != nil {
		p.screen.SetUpdate(p.muted(p.upd))
	}
}

// muted is u as this session's screen takes it: without the chat of the
// players it ignores (the screen's own chat too, uikit.Muting).
func (p *plain) muted(u table.Update) table.Update {
	seats := p.lists.MutedSeats(&u)
	if p.can.Muting != nil {
		p.can.Muting.Mute(seats)
	}
	return tui.WithoutMuted(u, seats)
}

// mutedLine reports whether e, a line of u's log, is the chat of a player
// this session ignores (plain mode does not print it).
func (p *plain) mutedLine(u *table.Update, e *game.Event) bool {
	return e.Kind == game.Chat && e.From >= 0 && int(e.From) < len(u.Seats) && u.Seats[e.From].ID != "" &&
		p.lists.Has(tui.IgnoreList, u.Seats[e.From].ID)
}
