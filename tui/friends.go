package tui

// Friends at the campfire: the friends page (F in the lobby and at a
// table), where each friend is (package presence), the requests that wait
// for an answer, the people met at finished games, and invitations to the
// table this session sits at. A guest reads a sentence saying a key
// brings friends.

import (
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Friends keeps keyed players' friendships and friend requests (the
// server's, on package friends): every method takes the session's player
// and the other player by identity.
type Friends interface {
	// Lists are p's friends, requests and the players p met lately.
	Lists(p table.Player) (FriendLists, error)
	// Ask has p ask other to be friends (or accepts other's request):
	// what to tell p.
	Ask(p table.Player, other Person) (game.Msg, error)
	Accept(p table.Player, other Person) error
	Decline(p table.Player, other Person) error
	// Remove ends a friendship, or takes back p's request.
	Remove(p table.Player, other Person) error
	// Circle is what presence needs of p's relations (at login), and
	// again, when not nil, to call once the session is on presence: it
	// reads the circle again if word that it changed came while Circle
	// read it (that word's own reload found nobody here to reload then).
	Circle(id string) (c presence.Circle, again func())
}

// FriendLists are one player's friends, their requests both ways, and
// the keyed players they met at their last finished games (who are none
// of those, nor kept away).
type FriendLists struct {
	Friends, Asked, Askers, Met []Person
	// Seen is when each friend was last seen (their profile's: the end of
	// their last session, or their last login), for one presence has
	// nothing live of: a friend who left before this session began.
	Seen map[string]time.Time
}

// Status is friend id's status st (ok: presence knows it) with the day
// they were last seen from the store when presence did not see them go.
func (l FriendLists) Status(id string, st presence.Status) presence.Status {
	if seen := l.Seen[id]; seen.After(st.Seen) {
		st.Seen = seen
	}
	return st
}

// Invitations: a session invites one friend at a time, at most
// inviteBurst at once and then one per inviteEvery, and only a friend who
// is online; an invitation lapses with its notice (notice.Life).
const (
	inviteBurst = 5
	inviteEvery = 10 * time.Second
)

// errNoFriends: this server keeps no friends.
var errNoFriends = game.NewError("friends.err.guest")

// friendsChangedMsg: a friend's status changed (presence.Session.C).
type friendsChangedMsg struct{}

// friendsPage is the friends page: its rows are the requests waiting for
// this player's answer, the friends, this player's requests, and the
// people met.
type friendsPage struct {
	back    page
	cur     int
	top     int // the first line shown of a page longer than the window
	lists   FriendLists
	confirm bool // x was pressed on a friend: y ends the friendship
	bind    pagesKeys
	fkeys   friendKeys
}

type friendKeys struct {
	Accept, Decline, Ask, Remove, Invite, Join key.Binding
}

var friendKeysByLang = uikit.PerLang[friendKeys]{Make: func(th *uikit.Theme) friendKeys {
	return friendKeys{
		Accept:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", th.T("ui.friends.key.accept"))),
		Decline: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", th.T("ui.friends.key.decline"))),
		Ask:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", th.T("ui.friends.key.ask"))),
		Remove:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", th.T("ui.friends.key.remove"))),
		Invite:  key.NewBinding(key.WithKeys("i"), key.WithHelp("i", th.T("ui.friends.key.invite"))),
		Join:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", th.T("ui.friends.key.join"))),
	}
}}

// rowKind is what a row of the friends page holds.
type rowKind uint8

const (
	rowAsker  rowKind = iota // asks to be my friend
	rowFriend                // a friend
	rowAsked                 // I asked them
	rowMet                   // met at a finished game
)

type friendRow struct {
	kind rowKind
	who  Person
}

func (fp *friendsPage) rows() []friendRow {
	var out []friendRow
	for _, l := range []struct {
		kind rowKind
		list []Person
	}{{rowAsker, fp.lists.Askers}, {rowFriend, fp.lists.Friends}, {rowAsked, fp.lists.Asked}, {rowMet, fp.lists.Met}} {
		for _, p := range l.list {
			out = append(out, friendRow{l.kind, p})
		}
	}
	return out
}

// openFriends shows the friends page; back is where esc goes.
func openFriends(m *root, back page) {
	fp := &friendsPage{back: back, bind: newPagesKeys(m.th), fkeys: friendKeysByLang.Get(m.th)}
	fp.reload(m)
	m.show(fp)
}

func (fp *friendsPage) reload(m *root) {
	if m.app.Friends == nil || m.sess.Player.Guest {
		return
	}
	l, err := m.app.Friends.Lists(m.sess.Player)
	if err != nil {
		m.notice = m.th.Err(err)
		return
	}
	fp.lists = l
	fp.cur = max(0, min(fp.cur, len(fp.rows())-1))
}

func (fp *friendsPage) picked() (friendRow, bool) {
	rs := fp.rows()
	if fp.cur >= len(rs) {
		return friendRow{}, false
	}
	return rs[fp.cur], true
}

// status is a friend's status as this session knows it.
func (m *root) friendStatus(id string) (presence.Status, bool) {
	return m.where.Friend(id)
}

// mayJoin: friend is at (or watches) a table whose code this session may
// know, and it is not the one this session is at.
func (m *root) mayJoin(friend string) bool {
	st, ok := m.friendStatus(friend)
	if !ok || !st.Online() || st.Place.Code == "" || st.Place.Where != presence.AtTable && st.Place.Where != presence.Watching {
		return false
	}
	return m.at == nil || m.at.upd.Room != st.Place.Code
}

// inviting: this session sits at a table that waits for players, with a
// seat free, so it may invite friend there (who sits elsewhere).
func (m *root) inviting(friend string) bool {
	t := m.at
	if t == nil || t.upd.Seat < 0 || t.upd.Started || t.upd.Over {
		return false
	}
	free := false
	for _, s := range t.upd.Seats {
		if s.ID == friend {
			return false
		}
		free = free || s.Name == "" && s.Bot == ""
	}
	return free
}

func (fp *friendsPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	rs := fp.rows()
	if fp.confirm {
		fp.confirm = false
		m.notice = ""
		if r, ok := fp.picked(); ok && k.String() == "y" && r.kind == rowFriend {
			m.notice = m.friendsDo(m.app.Friends.Remove(m.sess.Player, r.who), "ui.friends.removed", r.who)
			fp.reload(m)
		}
		return nil
	}
	if fp.bind.moveCursor(k, &fp.cur, len(rs)) {
		return nil
	}
	if key.Matches(k, fp.bind.Back) {
		m.show(fp.back)
		return nil
	}
	r, ok := fp.picked()
	if !ok || m.app.Friends == nil {
		return nil
	}
	me, fk := m.sess.Player, fp.fkeys
	switch {
	case r.kind == rowAsker && key.Matches(k, fk.Accept):
		m.notice = m.friendsDo(m.app.Friends.Accept(me, r.who), "ui.friends.now_friends", r.who)
	case r.kind == rowAsker && key.Matches(k, fk.Decline):
		m.notice = m.friendsDo(m.app.Friends.Decline(me, r.who), "ui.friends.declined", r.who)
	case r.kind == rowMet && key.Matches(k, fk.Ask):
		said, err := m.app.Friends.Ask(me, r.who)
		if err != nil {
			m.notice = m.th.Err(err)
		} else {
			m.notice = m.th.Msg(said)
		}
	case r.kind == rowAsked && key.Matches(k, fk.Remove):
		m.notice = m.friendsDo(m.app.Friends.Remove(me, r.who), "ui.friends.taken_back", r.who)
	case r.kind == rowFriend && key.Matches(k, fk.Remove):
		fp.confirm = true
		m.notice = m.th.T("ui.friends.remove_confirm", game.Text("Player", r.who.Name))
		return nil
	case r.kind == rowFriend && key.Matches(k, fk.Invite) && m.inviting(r.who.ID):
		m.notice = m.invite(r.who)
		return nil
	case r.kind == rowFriend && key.Matches(k, fk.Join):
		if m.mayJoin(r.who.ID) {
			st, _ := m.friendStatus(r.who.ID)
			code, watch := st.Place.Code, st.Place.Started
			return func() tea.Msg { return joinMsg{code: code, watch: watch} }
		}
		return nil
	default:
		return nil
	}
	fp.reload(m)
	return nil
}

// Befriend answers "friend NAME" (on) and "unfriend NAME" (off), in
// plain mode and over ssh: on asks NAME to be friends (or accepts their
// request), NAME being a player asking, met at p's last games, at the
// table u is of (nil: none), or a friend already; off ends a friendship
// or takes back a request. What to tell p, in th's words.
func (a *App) Befriend(th *uikit.Theme, p table.Player, name string, u *table.Update, on bool) string {
	if a.Friends == nil || p.Guest {
		return th.T("friends.err.guest")
	}
	want := sanitize.Fold(strings.TrimSpace(name))
	if want == "" {
		return th.T("friends.usage")
	}
	l, err := a.Friends.Lists(p)
	if err != nil {
		return th.Err(err)
	}
	find := func(lists ...[]Person) (Person, int, bool) {
		for i, list := range lists {
			for _, q := range list {
				if sanitize.Fold(q.Name) == want {
					return q, i, true
				}
			}
		}
		return Person{}, 0, false
	}
	nobody := th.T("friends.no_such", game.Text("Name", sanitize.Line(name, 40)))
	if !on {
		who, list, ok := find(l.Friends, l.Asked)
		switch {
		case !ok:
			return nobody
		case list == 0:
			return friendsSaid(th, a.Friends.Remove(p, who), "ui.friends.removed", who)
		}
		return friendsSaid(th, a.Friends.Remove(p, who), "ui.friends.taken_back", who)
	}
	who, _, ok := find(l.Askers, l.Met, l.Friends, l.Asked)
	if !ok && u != nil {
		if s, seated := PersonNamed(u, p.ID, name); seated && s.ID != "" {
			who, ok = Person{ID: s.ID, Name: s.Name}, true
		}
	}
	if !ok {
		return nobody
	}
	said, err := a.Friends.Ask(p, who)
	if err != nil {
		return th.Err(err)
	}
	return th.Msg(said)
}

// friendsDo is what to say after a change to the friends lists.
func (m *root) friendsDo(err error, done string, who Person) string {
	return friendsSaid(m.th, err, done, who)
}

// friendsSaid is err, or else done about who, in th's words.
func friendsSaid(th *uikit.Theme, err error, done string, who Person) string {
	if err != nil {
		return th.Err(err)
	}
	return th.T(done, game.Text("Player", who.Name))
}

// invite asks friend to this session's table, on their screen wherever
// they are (package notice), one key to sit down: what to tell the host.
func (m *root) invite(friend Person) string {
	st, ok := m.friendStatus(friend.ID)
	if !ok || !st.Online() {
		return m.th.T("ui.friends.not_online", game.Text("Player", friend.Name))
	}
	if m.app.Notices == nil {
		return ""
	}
	now := time.Now()
	if wait := m.invites.take(now); wait > 0 {
		return m.th.T("ui.friends.invite_slow", game.Num("N", int(wait.Seconds()+0.999)))
	}
	t := m.at
	m.app.Notices.Post(notice.Notice{
		ID: "invite:" + t.upd.Room, To: friend.ID, From: m.sess.Player.ID,
		Text: game.M("ui.friends.invites", game.Text("Player", m.sess.Player.Name), game.Text("Code", t.upd.Room),
			titleArg(m.app.Games, t.upd.Game)),
		Act:     notice.Act{Verb: notice.VerbJoin, Arg: t.upd.Room},
		Desktop: true,
	})
	return m.th.T("ui.friends.invited", game.Text("Player", friend.Name))
}

// titleArg is game id's name as a notice carries it: a catalog key, said
// in the reader's language.
func titleArg(games Catalog, id string) game.Arg {
	if g, ok := games.Lookup(id); ok {
		if g.TitleKey != "" {
			return game.Term("Game", g.TitleKey)
		}
		return game.Text("Game", g.Game.Title())
	}
	return game.Text("Game", id)
}

func (fp *friendsPage) help(m *root) []key.Binding {
	fk := fp.fkeys
	r, ok := fp.picked()
	var out []key.Binding
	if ok {
		switch r.kind {
		case rowAsker:
			out = append(out, fk.Accept, fk.Decline)
		case rowFriend:
			if m.inviting(r.who.ID) {
				out = append(out, fk.Invite)
			} else if m.mayJoin(r.who.ID) {
				out = append(out, fk.Join)
			}
			out = append(out, fk.Remove)
		case rowAsked:
			take := fk.Remove
			take.SetHelp("x", m.th.T("ui.friends.key.take_back"))
			out = append(out, take)
		case rowMet:
			out = append(out, fk.Ask)
		}
	}
	// The row's keys, esc and ? first: ↑/↓ last, where 80 columns may
	// cut it (TestFriendsHelpBarsFit).
	return append(out, fp.bind.Back, m.keys.Help, fp.bind.Up)
}

func (fp *friendsPage) bar(m *root) string           { return m.shortHelp(fp.help(m)) }
func (fp *friendsPage) keys(m *root) [][]key.Binding { return [][]key.Binding{fp.help(m)} }

func (fp *friendsPage) view(m *root) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.Title.Render(th.T("ui.friends.title")) + "\n" + m.rule() + "\n")
	if m.sess.Player.Guest || m.app.Friends == nil {
		for _, l := range uikit.Wrap(th.T("friends.err.guest"), m.width-2) {
			b.WriteString("\n" + th.Muted.Render(l))
		}
		b.WriteString("\n")
		if m.notice != "" {
			b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
		}
		return b.String()
	}
	// The rows as lines, and the cursor's line: a page longer than the
	// window shows the part around the cursor (fp.top), an arrow saying
	// there is more above or below.
	var lines []string
	i, curLine := 0, 0
	section := func(head string, kind rowKind, list []Person, none string) {
		if len(list) == 0 && none == "" {
			return
		}
		lines = append(lines, "", th.Header.Render(th.T(head)))
		if len(list) == 0 {
			lines = append(lines, th.Muted.Render("  "+th.T(none)))
		}
		for _, q := range list {
			mark := "  "
			if i == fp.cur {
				mark, curLine = "▸ ", len(lines)
			}
			line := mark + pad(th, q.Name, 22)
			if kind == rowFriend {
				line += " " + m.whereText(q.ID, fp.lists)
			}
			lines = append(lines, th.Trunc(line, m.width))
			i++
		}
	}
	section("ui.friends.head.askers", rowAsker, fp.lists.Askers, "")
	section("ui.friends.head.friends", rowFriend, fp.lists.Friends, "ui.friends.none")
	section("ui.friends.head.asked", rowAsked, fp.lists.Asked, "")
	section("ui.friends.head.met", rowMet, fp.lists.Met, "")
	if len(fp.lists.Friends) == 0 && len(fp.lists.Met) == 0 {
		for _, l := range uikit.Wrap(th.T("ui.friends.how"), m.width-2) {
			lines = append(lines, th.Muted.Render(l))
		}
	}
	var foot string
	if m.notice != "" {
		foot = "\n" + m.noticeBlock(m.notice) + "\n"
	}
	// The window's lines but the title, its rule, the notice, the banner
	// and the help bar.
	room := m.height - 3 - m.bannerLines() - strings.Count(foot, "\n")
	fp.top = scrollTop(fp.top, curLine, len(lines), room)
	if len(lines) > room && room > 2 {
		more := len(lines) - fp.top - room
		lines = lines[fp.top : fp.top+room]
		if fp.top > 0 {
			lines[0] = th.Muted.Render("  ↑")
		}
		if more > 0 {
			lines[room-1] = th.Muted.Render("  ↓")
		}
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(foot)
	return b.String()
}

// scrollTop is the first of n lines to show in room lines so that line
// cur shows with a line either side of it (an arrow may take the first
// and the last), moving from top as little as it can.
func scrollTop(top, cur, n, room int) int {
	if n <= room || room <= 2 {
		return 0
	}
	top = min(top, cur-1)
	top = max(top, cur+2-room)
	return max(0, min(top, n-room))
}

// whereText is where friend id is, in this session's words.
func (m *root) whereText(id string, l FriendLists) string {
	st, ok := m.friendStatus(id)
	return WhereText(m.th, m.app.Games, l.Status(id, st), ok)
}

// WhereText says where a friend is ("at table K7QX (The Grizzled,
// mission 2)"); ok false: not online as far as this node knows.
func WhereText(th *uikit.Theme, games Catalog, st presence.Status, ok bool) string {
	if !ok || !st.Online() {
		return seenText(th, st.Seen, time.Now())
	}
	pl := st.Place
	var s string
	switch pl.Where {
	case presence.InLobby:
		s = th.T("ui.friends.where.lobby")
	case presence.AtTable, presence.Watching:
		how := th.T("ui.friends.where.waiting")
		if pl.Started {
			how = th.T("ui.friends.where.playing")
			if !pl.Stage.IsZero() {
				how = th.Msg(pl.Stage)
			}
		}
		what := games.Title(th, pl.Game) + ", " + how
		k := "ui.friends.where.table"
		switch {
		case pl.Where == presence.Watching && pl.Code == "":
			k = "ui.friends.where.watching_private"
		case pl.Where == presence.Watching:
			k = "ui.friends.where.watching"
		case pl.Code == "":
			k = "ui.friends.where.table_private"
		}
		s = th.T(k, game.Text("Code", pl.Code), game.Text("What", what))
	}
	if st.Away {
		s += " · " + th.T("ui.friends.where.away")
	}
	return s
}

// seenText is an offline friend who went at seen (zero: not known) as
// the day: today, yesterday, or the date (a day, never a time); else
// just offline.
func seenText(th *uikit.Theme, seen, now time.Time) string {
	if seen.IsZero() {
		return th.T("ui.friends.where.offline")
	}
	y, m, d := now.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	switch seen = seen.In(now.Location()); {
	case !seen.Before(today):
		return th.T("ui.friends.where.seen_today")
	case !seen.Before(today.AddDate(0, 0, -1)):
		return th.T("ui.friends.where.seen_yesterday")
	}
	return th.T("ui.friends.where.seen_on", game.Text("Date", seen.Format(dateLayout)))
}

// tellPlace tells presence where this session is now (tui.Whereabouts).
func (m *root) tellPlace() {
	if m.at == nil {
		m.where.Tell(m.app.Games, nil)
		return
	}
	m.where.Tell(m.app.Games, &m.at.upd)
}

// Whereabouts is one session on the node's presence: it tells where the
// session is when that changes, and hears of its player's friends.
type Whereabouts struct {
	*presence.Session
	sent bool
	was  placeKey
}

// JoinPresence puts p's session on the node's presence, in the lobby
// (nil: a guest, or no presence). Close it when the session ends.
func (a *App) JoinPresence(p table.Player) *Whereabouts {
	if a.Presence == nil || a.Friends == nil || p.Guest {
		return nil
	}
	c, again := a.Friends.Circle(p.ID)
	w := &Whereabouts{Session: a.Presence.Join(p.ID, p.Name, c)}
	if again != nil {
		again()
	}
	return w
}

// Tell says the session is at the table u is of (nil: in the lobby, or
// on a page of its own), with how far its game is, if that changed. A
// session calls it at every table update: what it compares costs no
// allocation.
func (w *Whereabouts) Tell(games Catalog, u *table.Update) {
	if w == nil {
		return
	}
	k := placeKey{where: presence.InLobby}
	var view game.View
	if u != nil {
		if u.Game == "" {
			return // sitting down: the table's first update says what it is
		}
		k = placeKey{where: presence.AtTable, game: u.Game, code: u.Room, started: u.Started}
		if u.Seat < 0 {
			k.where = presence.Watching
		}
		for _, s := range u.Seats {
			if s.ID != "" {
				k.seated++
			}
		}
		if u.Started && !u.Over && u.View != nil {
			if g, ok := games.Lookup(u.Game); ok {
				if pg, ok := g.Game.(game.Progress); ok {
					k.stage.key, k.stage.n = pg.Stage(u.View)
					view = u.View
				}
			}
		}
	}
	if w.sent && k == w.was {
		return
	}
	w.sent, w.was = true, k
	pl := presence.Place{Where: k.where, Game: k.game, Code: k.code, Private: len(k.code) > table.PublicCodeLen, Started: k.started}
	if view != nil && k.stage.key != "" {
		pl.Stage = game.M(k.stage.key, game.Num("N", k.stage.n))
	}
	if u != nil {
		for _, s := range u.Seats {
			if s.ID != "" {
				pl.Players = append(pl.Players, s.ID)
			}
		}
	}
	w.Set(pl)
}

// Key says a key came at unixNano: an away session is back (presence
// Session.Key; nothing to do for a guest).
func (w *Whereabouts) Key(unixNano int64) {
	if w != nil {
		w.Session.Key(unixNano)
	}
}

// Close takes the session off presence.
func (w *Whereabouts) Close() {
	if w != nil {
		w.Session.Close()
	}
}

// Friend is friend id's status as this session may see it.
func (w *Whereabouts) Friend(id string) (presence.Status, bool) {
	if w == nil {
		return presence.Status{}, false
	}
	return w.Session.Friend(id)
}

// placeKey is what a session last told presence, to tell it only changes.
type placeKey struct {
	where   presence.Where
	game    string
	code    string
	started bool
	seated  int
	stage   stageKey
}

type stageKey struct {
	key string
	n   int
}
