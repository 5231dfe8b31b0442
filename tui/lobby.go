package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// lobbyPage lists the tables a player may join or watch.
type lobbyPage struct {
	rooms  []table.Summary
	vis    []table.Summary // visibleRooms of visFor (the hub shares rooms slices)
	visFor []table.Summary
	// moves are the tables waiting on the player (uikit.YourMoves) of
	// movesFor
	moves, movesFor []table.Summary
	movedTo         string // the table of moves[0] when the cursor was put on it
	cursor          int
	// motdDone: the message of the day was shown and a key pressed (motd.go)
	motdDone bool

	// drawing scratch, reused from frame to frame
	helpKeys []key.Binding // help's result, valid until its next call
	head     struct {      // the title lines, for this width and name
		width int
		name  string
		badge table.Badge
		lang  i18n.Lang
		text  string
	}
}

// refresh reads the hub's room list again.
func (p *lobbyPage) refresh(m *root) { p.refreshSince(m, time.Now()) }

// forget lets go of the room list (and the help bar's scratch) while the
// lobby is off screen (it is read again when the lobby comes back). Kept, every seated player held
// the list as it was when they sat down: hundreds of versions of a
// 2,000-room list at 10,000 players, 9% of the live heap while tables
// played.
func (p *lobbyPage) forget() {
	p.rooms, p.vis, p.visFor, p.helpKeys, p.moves, p.movesFor = nil, nil, nil, nil, nil, nil
}

// maxMoveLines is how many "your move" lines the lobby shows above its
// tables (the rest are counted; ssh host games lists them all).
const maxMoveLines = 3

// yourMoves are the correspondence tables waiting on this player.
func (p *lobbyPage) yourMoves(m *root) []table.Summary {
	if p.movesFor == nil || !sameList(p.movesFor, p.rooms) {
		p.moves, p.movesFor = uikit.YourMoves(m.app.lobbyRooms.waiting(p.rooms), m.sess.Player.ID), p.rooms
	}
	return p.moves
}

// movesView is the lobby's first lines: the tables waiting on the player.
func (p *lobbyPage) movesView(m *root) (string, int) {
	moves := p.yourMoves(m)
	if len(moves) == 0 {
		return "", 0
	}
	th := m.th
	var b strings.Builder
	now := time.Now()
	for i, r := range moves {
		if i == maxMoveLines {
			b.WriteString(th.Muted.Render(th.Trunc("  "+th.T("ui.lobby.more_moves", game.Count(len(moves)-i)), m.width)) + "\n")
			break
		}
		b.WriteString(th.Accent.Render(th.Trunc("  ▶ "+th.Msg(uikit.YourMove(r, now)), m.width)) + "\n")
	}
	return b.String(), min(len(moves), maxMoveLines+1)
}

// refreshSince takes the hub's room list as it was at since or later.
func (p *lobbyPage) refreshSince(m *root, since time.Time) {
	p.rooms = m.app.lobbyRooms.current(m.app.Hub, since)
	rooms := p.visibleRooms(m)
	p.cursor = min(p.cursor, max(0, len(rooms)-1))
	// A table newly waiting on the player gets the cursor: enter goes there.
	if moves := p.yourMoves(m); len(moves) > 0 && moves[0].Code != p.movedTo {
		p.movedTo = moves[0].Code
		if i := slices.IndexFunc(rooms, func(r table.Summary) bool { return r.Code == p.movedTo }); i >= 0 {
			p.cursor = i
		}
	} else if len(moves) == 0 {
		p.movedTo = ""
	}
}

// visibleRooms are the rooms this player may see listed: private tables
// only to those they concern (others join them by code). Most players see
// the public list that every session shares (sharedRooms); only one who
// may see a private table gets a list of their own.
func (p *lobbyPage) visibleRooms(m *root) []table.Summary {
	if p.visFor != nil && sameList(p.visFor, p.rooms) {
		return p.vis
	}
	public, private := m.app.lobbyRooms.split(p.rooms)
	me := m.sess.Player.ID
	p.vis, p.visFor = public, p.rooms
	if slices.ContainsFunc(private, func(r table.Summary) bool { return concerns(r, me) }) {
		p.vis = p.filterRooms(me)
	}
	return p.vis
}

func (p *lobbyPage) filterRooms(me string) []table.Summary {
	out := p.rooms[:0:0]
	for _, r := range p.rooms {
		if r.Status == table.StatusClosed || (r.Private && !concerns(r, me)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func (p *lobbyPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	if p.motdShowing(m) && !key.Matches(k, m.keys.Quit) {
		p.motdDone = true // any key goes on to the tables
		return nil
	}
	rooms := p.visibleRooms(m)
	switch {
	case key.Matches(k, m.keys.Quit):
		m.closed = m.th.T(QuitGoodbye)
		return tea.Quit
	case key.Matches(k, m.keys.Lang):
		m.switchLang(m.th.Lang().Next())
	case key.Matches(k, m.keys.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(k, m.keys.Down):
		p.cursor = min(max(0, len(rooms)-1), p.cursor+1)
	case key.Matches(k, m.keys.Enter), key.Matches(k, m.keys.Watch):
		if p.cursor < len(rooms) {
			watch := key.Matches(k, m.keys.Watch)
			code := rooms[p.cursor].Code
			return func() tea.Msg { return joinMsg{code: code, watch: watch} }
		}
	case m.sess.Player.WatchOnly && (key.Matches(k, m.keys.New) || key.Matches(k, m.keys.Learn)):
		m.notice = m.th.Err(table.ErrWatchOnly) // said now, not after the form
	case key.Matches(k, m.keys.New):
		openForm(m)
	case key.Matches(k, m.keys.Learn):
		if _, ok := m.app.learnEntry(); ok {
			return m.learn()
		}
	case key.Matches(k, m.keys.Code):
		return m.askCode()
	case key.Matches(k, m.keys.Profile):
		openProfile(m)
	case key.Matches(k, m.keys.People): // the players kept away; a guest's only way to them
		openLists(m, m.lobby)
	case key.Matches(k, m.keys.Friends):
		openFriends(m, m.lobby)
	case key.Matches(k, m.keys.Campaigns):
		openCampaigns(m)
	case key.Matches(k, m.keys.Rename):
		return m.askName()
	}
	return nil
}

func (p *lobbyPage) view(m *root) string {
	if p.motdShowing(m) {
		return p.motdView(m)
	}
	th := m.th
	var b strings.Builder
	b.WriteString(p.title(m))
	moves, n := p.movesView(m)
	b.WriteString(moves)
	b.WriteString(th.Header.Render(th.T("ui.lobby.tables")) + "\n")

	rooms := p.visibleRooms(m)
	if len(rooms) == 0 {
		for _, l := range uikit.Wrap(th.T("ui.lobby.no_tables"), m.width-2) {
			b.WriteString(th.Muted.Render("  "+l) + "\n")
		}
	}
	listHeight := max(m.height-9-n, 1)
	first := 0
	if p.cursor >= listHeight {
		first = p.cursor - listHeight + 1
	}
	public, _ := m.app.lobbyRooms.split(p.rooms)
	shared := sameList(rooms, public)
	for i := first; i < len(rooms) && i < first+listHeight; i++ {
		r, selected := rooms[i], i == p.cursor
		if shared && !slices.Contains(r.Players, m.sess.Player.ID) {
			// The line every other viewer in this theme and width sees.
			b.WriteString(m.app.lobbyRooms.line(p.rooms, lineKey{th, m.width, selected}, i, func() string { return p.roomLine(m, r, selected) }) + "\n")
			continue
		}
		b.WriteString(p.roomLine(m, r, selected) + "\n")
	}
	b.WriteString("\n")
	if _, ok := m.app.learnEntry(); ok && !m.sess.Player.WatchOnly {
		b.WriteString(th.Muted.Render(th.Trunc("  "+th.T("ui.lobby.learn_hint"), m.width)) + "\n")
	}
	if m.notice != "" {
		b.WriteString(m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

func (p *lobbyPage) bar(m *root) string { return m.shortHelp(p.help(m, false)) }

func (p *lobbyPage) keys(m *root) [][]key.Binding {
	return [][]key.Binding{p.help(m, true)}
}

// help is the lobby's help bar, or (full) every lobby key.
func (p *lobbyPage) help(m *root, full bool) []key.Binding {
	k := m.keys
	enter := k.Enter
	enter.SetEnabled(len(p.visibleRooms(m)) > 0)
	watch := k.Watch
	watch.SetEnabled(len(p.visibleRooms(m)) > 0)
	recs := m.app.Records != nil && !m.sess.Player.Guest
	profile, campaigns := k.Profile, k.Campaigns
	profile.SetEnabled(recs)
	campaigns.SetEnabled(recs)
	help, code := k.Help, k.Code
	help.SetHelp("?", m.th.T("ui.key.more"))
	code.SetHelp("c", m.th.T("ui.key.code"))
	// Into the page's scratch slice: this runs on every lobby frame.
	if full {
		learn := k.Learn
		_, ok := m.app.learnEntry()
		learn.SetEnabled(ok)
		people := k.People
		people.SetHelp("I", m.th.T("ui.people.key.lists"))
		p.helpKeys = append(p.helpKeys[:0], k.Up, enter, watch, k.New, learn, k.Code, campaigns, profile, k.Friends, people, k.Rename, k.Lang, k.Help, k.Quit)
	} else {
		// No ↑/↓ here: at 80 columns "? more • q quit" must fit.
		p.helpKeys = append(p.helpKeys[:0], enter, k.New, code, campaigns, profile, help, k.Quit)
	}
	return p.helpKeys
}

// title is the lobby's first lines (title, player, rule, guest code),
// drawn again only when the width or the player's name or rank changes.
func (lp *lobbyPage) title(m *root) string {
	h, p := &lp.head, m.sess.Player
	th := m.th
	if h.text != "" && h.width == m.width && h.name == p.Name && h.badge == p.Badge && h.lang == th.Lang() {
		return h.text
	}
	who := th.Muted.Render(th.T("ui.lang.key", game.Text("Lang", th.T("ui.lang.name")))+" · ") + th.Accent.Render(th.Text(p.Name))
	if p.Badge == BadgeVeteran {
		who += " " + th.Good.Render("★ "+th.T("ui.lobby.veteran", game.Person("Player", p.Name, p.Gender)))
	}
	if p.Guest {
		who += th.Muted.Render(" " + th.T("ui.lobby.guest"))
	}
	title := th.Title.Render("Bivouac") + th.Muted.Render(" · "+th.T("ui.lobby.tagline"))
	if name := m.app.ServerName; name != "" {
		title = th.Title.Render(name) + th.Muted.Render(" · Bivouac")
	}
	gap := max(1, m.width-lipgloss.Width(title)-lipgloss.Width(who))
	var b strings.Builder
	b.WriteString(title + strings.Repeat(" ", gap) + who + "\n")
	b.WriteString(m.rule() + "\n")
	if p.Guest && m.sess.Guest != "" {
		for _, line := range uikit.Wrap(GuestHint(th, m.sess.Guest, m.app.JoinHint), m.width) {
			b.WriteString(th.Muted.Render(line) + "\n")
		}
	}
	h.width, h.name, h.badge, h.lang, h.text = m.width, p.Name, p.Badge, th.Lang(), b.String()
	return h.text
}

// GuestHint tells a keyless guest their reclaim code, which only this
// session ever shows, and the exact command to come back with it.
func GuestHint(th *uikit.Theme, code, joinHint string) string {
	again := "ssh " + code + "@host"
	if i := strings.LastIndexByte(joinHint, ' '); i > 0 {
		again = joinHint[:i+1] + code + "@" + joinHint[i+1:]
	}
	return th.T("ui.lobby.guest_code", game.Text("Code", code), game.Text("Again", again))
}

func (p *lobbyPage) roomLine(m *root, r table.Summary, selected bool) string {
	th := m.th
	seated := 0
	for _, s := range r.Seats {
		if s.Name != "" {
			seated++
		}
	}
	status := string(r.Status)
	switch r.Status {
	case table.StatusWaiting:
		status = th.Good.Render(th.T("ui.lobby.waiting_open", game.Num("N", r.Open)))
	case table.StatusPlaying:
		status = th.Accent.Render(th.T("ui.lobby.playing"))
	case table.StatusOver:
		status = th.Muted.Render(th.T("ui.lobby.finished"))
	}
	var names []string
	for _, s := range r.Seats {
		if s.Name != "" {
			n := th.Name(s.Name)
			n += badgeMark(s.Badge)
			names = append(names, n)
		}
	}
	mark := "  "
	if selected {
		mark = "▸ "
	}
	rest := status
	if slices.Contains(r.Players, m.sess.Player.ID) && r.Status != table.StatusOver {
		rest = th.Accent.Render(th.T("ui.lobby.your_seat")+" · ") + rest
	}
	if r.Pace.Correspondence { // kept whole, as the status: a table of days, not an evening
		rest += th.Muted.Render(" · " + th.T("ui.lobby.correspondence"))
	}
	// A title longer than its column of 34 takes up to 46 cells: never a
	// word of it cut ("· 4 игрока"). Where the table's status would then
	// not fit ("ваше место · ждёт · свободн…"), the title's last parts go
	// instead, whole (the seats are counted beside it), and its column
	// narrows; a cell is kept for the ellipsis of what follows.
	title := uikit.Clean(th.Msg(r.Title))
	counts := fmt.Sprintf(" %d/%d  ", seated, len(r.Seats))
	room := m.width - uikit.Width(mark) - 6 - uikit.Width(counts) - uikit.Width(rest) - 1
	for uikit.Width(title) > room {
		i := strings.LastIndex(title, " · ")
		if i < 0 {
			break
		}
		title = title[:i]
	}
	col := max(34, min(uikit.Width(title), m.width-34))
	col = min(col, max(uikit.Width(title), room))
	line := fmt.Sprintf("%s%s %s%s", mark, pad(th, r.Code, 5), pad(th, title, col), counts)
	if r.Campaign != "" {
		rest += th.Muted.Render(" · " + th.T("ui.lobby.campaign"))
	}
	if r.Private {
		rest += th.Muted.Render(" · " + th.T("ui.lobby.private"))
	}
	if len(names) > 0 {
		rest += th.Muted.Render(" · " + strings.Join(names, ", "))
	}
	out := th.Trunc(line+rest, m.width) // the names run past the edge at a full table
	if selected {
		return th.Strong.Render(out)
	}
	return out
}
