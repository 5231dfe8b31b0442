package admin

// The admin commands that act on players' sessions and on tables: who,
// kick, say and close. Each node answers for its own sessions and tables
// (Here.Answer); in a cluster the admin's node asks every other node too,
// over cluster/adminbus, and names the nodes that did not answer.

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/adminbus"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/server/live"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// AskWithin bounds the wait for each other node's answer to an admin
// command; a node that has not answered by then is named as silent.
// close waits adminCloseWait longer: the owner waits for the table to save.
const AskWithin = 2 * time.Second

// Here is this node's part of the admins' commands: its player sessions
// and the tables it runs.
type Here struct {
	Hub  *table.Hub
	Live *live.Sessions
	Mod  *moderation.Service
	Log  *slog.Logger
}

// Answer does this node's part of an admin request: the request may
// come from another node, so its words are cleaned again here.
func (h *Here) Answer(req adminbus.Request) adminbus.Reply {
	switch req.Op {
	case adminbus.OpWho:
		at := h.tablesAt()
		return adminbus.Reply{Sessions: h.sessions(at), Seated: at}
	case adminbus.OpKick:
		return adminbus.Reply{Count: h.kick(sanitize.Line(req.Player, 128), sanitize.Line(req.Text, moderation.MaxReason))}
	case adminbus.OpSay:
		return adminbus.Reply{Count: h.say(sanitize.Line(req.Text, game.MaxChat))}
	case adminbus.OpClose:
		return adminbus.Reply{Count: h.close(strings.ToUpper(sanitize.Line(req.Code, 20)))}
	case adminbus.OpRevoke:
		return adminbus.Reply{Count: h.revoke(sanitize.Line(req.Player, 128))}
	}
	return adminbus.Reply{}
}

// askEveryNode is req's answers: this node's first, then, in a cluster,
// every other known node's, each within within. A node that did not
// answer has its Err set.
func (c *Console) askEveryNode(req adminbus.Request, within time.Duration) []adminbus.Answer {
	here := adminbus.Answer{Reply: c.Here.Answer(req)}
	if c.Cluster == nil {
		return []adminbus.Answer{here}
	}
	here.Node = c.Cluster.Node()
	return append([]adminbus.Answer{here}, c.Cluster.AskOthers(req, within)...)
}

// silentNodes are the nodes of answers that did not answer.
func silentNodes(answers []adminbus.Answer) []string {
	var out []string
	for _, a := range answers {
		if a.Err != nil {
			out = append(out, a.Node)
		}
	}
	return out
}

// sayingSilent is a line per silent node, in key's words.
func (a *adminSession) sayingSilent(key string, silent []string) []string {
	var lines []string
	for _, n := range silent {
		lines = append(lines, a.p.T(key, game.Text("Node", n)))
	}
	return lines
}

// sessions are this node's player sessions as `admin who` lists them,
// with the tables this node runs where they sit (at: tablesAt); who adds
// those other nodes run.
func (h *Here) sessions(at map[string][]string) []adminbus.Session {
	all := h.Live.List(nil)
	if len(all) == 0 {
		return nil
	}
	out := make([]adminbus.Session, 0, len(all))
	for _, ls := range all {
		out = append(out, adminbus.Session{Name: ls.DisplayName(), ID: ls.Who.ID, Addr: ls.Who.RemoteIP, Since: ls.Since, Tables: at[ls.Who.ID]})
	}
	return out
}

// tablesAt is, for each player, the codes of the tables this node runs
// where a session of theirs (on any node) sits now (private ones too:
// admins may see codes), sorted.
func (h *Here) tablesAt() map[string][]string {
	at := map[string][]string{}
	for _, r := range h.Hub.Locals() {
		sum := r.Summary()
		if sum.Status == table.StatusClosed {
			continue
		}
		for _, st := range sum.Seats {
			if st.ID != "" && st.Connected && !slices.Contains(at[st.ID], sum.Code) {
				at[st.ID] = append(at[st.ID], sum.Code)
			}
		}
	}
	for _, codes := range at {
		slices.Sort(codes)
	}
	return at
}

// who lists the sessions of every node; in a cluster, grouped by node,
// with the nodes that did not answer named.
func (a *adminSession) who() {
	answers := a.c.askEveryNode(adminbus.Request{Op: adminbus.OpWho}, AskWithin)
	silent := silentNodes(answers)
	total := 0
	for _, an := range answers {
		total += len(an.Reply.Sessions)
	}
	if total == 0 && len(silent) == 0 {
		a.out(a.p.T("moderation.admin.who_none"))
		return
	}
	seatedAt(answers)
	lines := []string{a.p.T("moderation.admin.who_title")}
	if len(answers) == 1 { // one node: no node to name
		a.out(append(lines, a.whoLines(answers[0].Reply.Sessions, "  ")...)...)
		return
	}
	for _, an := range answers {
		switch {
		case an.Err != nil:
		case len(an.Reply.Sessions) == 0:
			lines = append(lines, "  "+a.p.T("moderation.admin.cluster.who_node_none", game.Text("Node", an.Node)))
		default:
			lines = append(lines, "  "+a.p.T("moderation.admin.cluster.who_node", game.Text("Node", an.Node)))
			lines = append(lines, a.whoLines(an.Reply.Sessions, "    ")...)
		}
	}
	for _, l := range a.sayingSilent("moderation.admin.cluster.silent_who", silent) {
		lines = append(lines, "  "+l)
	}
	a.out(lines...)
}

// seatedAt adds to each session the tables it sits at wherever they run:
// a table another node runs knows who sits at it through that node
// (issue 41: such a player was listed in the lobby).
func seatedAt(answers []adminbus.Answer) {
	at := map[string][]string{}
	for _, an := range answers {
		for id, codes := range an.Reply.Seated {
			at[id] = append(at[id], codes...)
		}
	}
	for _, an := range answers {
		for i, ss := range an.Reply.Sessions {
			codes := append(slices.Clone(ss.Tables), at[ss.ID]...)
			slices.Sort(codes)
			an.Reply.Sessions[i].Tables = slices.Compact(codes)
		}
	}
}

// whoLines is a line per session: name, identity, address, since when, where.
func (a *adminSession) whoLines(sessions []adminbus.Session, indent string) []string {
	lines := make([]string, 0, len(sessions))
	for _, ss := range sessions {
		where := a.p.T("moderation.admin.more.who_lobby")
		if len(ss.Tables) > 0 {
			where = a.p.T("moderation.admin.who_at", game.Count(len(ss.Tables)), game.Text("Codes", strings.Join(ss.Tables, ", ")))
		}
		lines = append(lines, fmt.Sprintf("%s%s  %s  %s  %s  %s", indent, sanitize.Line(ss.Name, sanitize.MaxNameRunes+8),
			sanitize.Line(ss.ID, 128), sanitize.Line(ss.Addr, 64), ss.Since.UTC().Format("2006-01-02 15:04"), where))
	}
	return lines
}

// kick ends who's sessions on every node now; their seats stay theirs, as
// after a lost connection.
func (a *adminSession) kick(who moderation.Person, rest []string) error {
	if who.ID == a.by.ID {
		return moderation.ErrSelf
	}
	if a.c.Mod.IsAdmin(who.ID) {
		return moderation.ErrAdminImmune
	}
	reason := sanitize.Line(strings.Join(rest, " "), moderation.MaxReason)
	answers := a.c.askEveryNode(adminbus.Request{Op: adminbus.OpKick, Player: who.ID, Text: reason}, AskWithin)
	ended := 0
	for _, an := range answers {
		ended += an.Reply.Count
	}
	silent := a.sayingSilent("moderation.admin.cluster.silent_kick", silentNodes(answers))
	switch {
	case ended > 0:
		a.c.Mod.Record(a.by, "kick", who.ID, who.Name, reason)
		a.out(append([]string{a.p.T("moderation.admin.kicked", game.Text("Name", who.Name))}, silent...)...)
	case a.c.Cluster != nil:
		a.out(append([]string{a.p.T("moderation.admin.cluster.not_on", game.Text("Name", who.Name))}, silent...)...)
	default:
		a.out(a.p.T("moderation.admin.not_on", game.Text("Name", who.Name)))
	}
	return nil
}

// kick ends the sessions of identity id on this node, each told why
// in its own language, and says how many.
func (h *Here) kick(id, reason string) int {
	if id == "" {
		return 0
	}
	end := tui.Control{End: game.M("moderation.kicked")}
	if reason != "" {
		end.End = game.M("moderation.kicked_reason", game.Text("Reason", reason))
	}
	sessions := h.Live.Of(id)
	for _, ls := range sessions {
		ls.Send(end)
	}
	return len(sessions)
}

// say shows a notice to every player session of every node, in the lobby
// or at a table.
func (a *adminSession) say(rest []string) error {
	text := sanitize.Line(strings.Join(rest, " "), game.MaxChat)
	if text == "" {
		return usageOf("say")
	}
	answers := a.c.askEveryNode(adminbus.Request{Op: adminbus.OpSay, Text: text}, AskWithin)
	reached := 0
	for _, an := range answers {
		reached += an.Reply.Count
	}
	a.c.Mod.Record(a.by, "say", "", "", text)
	a.out(append([]string{a.p.T("moderation.admin.said", game.Count(reached))},
		a.sayingSilent("moderation.admin.cluster.silent_say", silentNodes(answers))...)...)
	return nil
}

// say shows text as the admins' notice to every session on this node.
func (h *Here) say(text string) int {
	if text == "" {
		return 0
	}
	sessions := h.Live.List(nil)
	notice := tui.Control{Notice: game.M("moderation.notice", game.Text("Text", text))}
	for _, ls := range sessions {
		ls.Send(notice)
	}
	return len(sessions)
}

// close ends a table wherever it runs; it is saved closed, not restored.
func (a *adminSession) close(rest []string) error {
	code := strings.ToUpper(sanitize.Line(rest[0], 20))
	closed := a.c.Here.close(code) > 0
	var silent []string
	if !closed && a.c.Cluster != nil {
		answers := a.c.Cluster.AskOthers(adminbus.Request{Op: adminbus.OpClose, Code: code}, adminCloseWait+AskWithin)
		for _, an := range answers {
			closed = closed || an.Reply.Count > 0
		}
		silent = silentNodes(answers)
	}
	switch {
	case closed:
	case len(silent) > 0:
		return &game.Error{Msg: game.M("moderation.admin.cluster.table_unanswered", game.Text("Code", code), game.Text("Nodes", strings.Join(silent, ", ")))}
	case a.c.Cluster != nil && a.c.Cluster.Has(code):
		// Listed, but no node runs it: its node stopped and another is
		// taking it over.
		return &game.Error{Msg: game.M("moderation.admin.cluster.table_between", game.Text("Code", code))}
	default:
		return &game.Error{Msg: game.M("moderation.err.no_such_table", game.Text("Code", code))}
	}
	a.c.Mod.Record(a.by, "close", code, code, "")
	a.out(a.p.T("moderation.admin.closed", game.Text("Code", code)))
	return nil
}

// close closes table code if this node runs it, and waits for it to
// save itself closed: "closed" then means kept closed. 1 if it did.
func (h *Here) close(code string) int {
	r := h.Hub.Local(code)
	if r == nil {
		return 0
	}
	r.Close(table.ClosedByAdmin)
	select {
	case <-r.Done():
	case <-time.After(adminCloseWait):
	}
	return 1
}

// resolveOnNodes finds a player this node does not know by name (they
// came in on another node since it started) among the sessions of the
// other nodes: the one identity whose session there bears the name, case
// and look-alikes aside. Else notFound.
func (c *Console) resolveOnNodes(name string, notFound error) (moderation.Person, error) {
	fold := sanitize.Fold(sanitize.Line(name, sanitize.MaxNameRunes+8))
	var found *adminbus.Session
	for _, an := range c.Cluster.AskOthers(adminbus.Request{Op: adminbus.OpWho}, AskWithin) {
		for _, ss := range an.Reply.Sessions {
			switch {
			case sanitize.Fold(ss.Name) != fold:
			case found == nil:
				found = &ss
			case found.ID != ss.ID:
				return moderation.Person{}, &game.Error{Err: errAmbiguous, Msg: game.M("moderation.console.ambiguous", game.Text("Name", name),
					game.List("Names", game.Raw(found.Name+" ("+found.ID+")"), game.Raw(ss.Name+" ("+ss.ID+")")))}
			}
		}
	}
	if found == nil {
		return moderation.Person{}, notFound
	}
	id := sanitize.Line(found.ID, 128)
	return moderation.Person{ID: id, Name: sanitize.Line(found.Name, sanitize.MaxNameRunes+8),
		Guest: strings.HasPrefix(id, "guest:"), Addr: sanitize.Line(found.Addr, 64)}, nil
}

// EnforceBan ends the sessions on this node the ban keeps out (the
// player's, and from an address it holds, guests' or everyone's), each
// with the reason and how long the ban lasts in its own language; each
// gives its seat up (a bot plays it, a waiting room frees it). It returns
// how many.
func (h *Here) EnforceBan(sn moderation.Sanction) int {
	now := h.Mod.Now()
	sessions := h.Live.List(func(ls *live.Session) bool {
		return !h.Mod.IsAdmin(ls.Who.ID) && moderation.Ends(sn, visitorOf(ls.Who), now)
	})
	for _, ls := range sessions {
		ls.Send(tui.Control{End: moderation.ExplainTo(sn, visitorOf(ls.Who), now), GiveUpSeat: true})
	}
	if moderation.IsAddressBan(sn) {
		return len(sessions)
	}
	// Seats the player holds while away would wait for them (a Werewolves
	// table without stand-ins): given up too. A seat with a session on it
	// is given up by that session as it ends.
	for _, sum := range h.Hub.List() {
		if slices.Contains(sum.Players, sn.Subject) {
			if r := h.Hub.Local(sum.Code); r != nil {
				if err := r.GiveUpSeat(sn.Subject); err != nil {
					// The room stopped (no seat to wait) or is too busy
					// to take the command: the seat keeps waiting.
					h.Log.Warn("a banned player's seat was not given up", "room", sum.Code, "err", err)
				}
			}
		}
	}
	return len(sessions)
}

// visitorOf is a session's identity as a ban sees it.
func visitorOf(id sshserver.Identity) moderation.Visitor {
	return moderation.Visitor{ID: id.ID, Guest: id.Guest, Addr: id.RemoteIP}
}
