package tui

import (
	"context"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// peoplePicker is the list of the other players at the table (I, or X in
// the waiting room), over the table's screen: the player picked is
// ignored or not (i), blocked or not (b), reported (r, with a reason on
// the prompt line) or, by the host before the game, removed (x, then y).
type peoplePicker struct {
	cur     int
	confirm bool // x was pressed: y removes the player under the cursor
	keys    peopleKeys
}

type peopleKeys struct {
	Up, Down, Ignore, Block, Report, Remove, Befriend, Back key.Binding
}

var peopleKeysByLang = uikit.PerLang[peopleKeys]{Make: func(th *uikit.Theme) peopleKeys {
	return peopleKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", th.T("ui.key.select"))),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", th.T("ui.key.down"))),
		Ignore:   key.NewBinding(key.WithKeys("i"), key.WithHelp("i", th.T("ui.people.key.ignore"))),
		Block:    key.NewBinding(key.WithKeys("b"), key.WithHelp("b", th.T("ui.people.key.block"))),
		Report:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", th.T("ui.people.key.report"))),
		Remove:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", th.T("ui.people.key.remove"))),
		Befriend: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", th.T("ui.friends.key.ask"))),
		Back:     key.NewBinding(key.WithKeys("esc", "I", "Q"), key.WithHelp("esc", th.T("ui.key.back"))),
	}
}}

// openPeople shows the picker at table t with the cursor on the player in
// seat (or the first player, if seat holds none); confirm asks at once
// whether to remove them (X in the waiting room).
func openPeople(m *root, t *tablePage, seat int, confirm bool) {
	m.app.LoadLists(m.sess.Player, &m.lists)
	pp := &peoplePicker{keys: peopleKeysByLang.Get(m.th)}
	for i, s := range people(&t.raw, m.sess.Player.ID) {
		if int(s.Seat) == seat {
			pp.cur = i
			pp.confirm = confirm && pp.mayRemove(m, t)
		}
	}
	m.people = pp
	m.notice = ""
	if pp.confirm {
		m.notice = pp.confirmText(m, t)
	}
}

// picked is the player under the cursor.
func (pp *peoplePicker) picked(m *root, t *tablePage) (table.SeatInfo, bool) {
	ps := people(&t.raw, m.sess.Player.ID)
	if len(ps) == 0 {
		return table.SeatInfo{}, false
	}
	pp.cur = min(pp.cur, len(ps)-1)
	return ps[pp.cur], true
}

// mayRemove: the host, before the game, may remove the player picked.
func (pp *peoplePicker) mayRemove(m *root, t *tablePage) bool {
	_, ok := pp.picked(m, t)
	return ok && !t.raw.Started && t.isHost(m)
}

func (pp *peoplePicker) confirmText(m *root, t *tablePage) string {
	who, _ := pp.picked(m, t)
	return m.th.T("ui.people.remove_confirm", game.Text("Player", who.Name))
}

func (pp *peoplePicker) key(m *root, k tea.KeyMsg) tea.Cmd {
	t := m.at
	if t == nil {
		m.people = nil
		return nil
	}
	pk := pp.keys
	who, any := pp.picked(m, t)
	if pp.confirm {
		pp.confirm = false
		m.notice = ""
		if k.String() == "y" && pp.mayRemove(m, t) {
			room, box, seat := t.room, m.box, who.Seat
			return m.roomCall(func(ctx context.Context) error { return room.Remove(ctx, box, seat) })
		}
		return nil
	}
	me, person := m.sess.Player, Person{ID: who.ID, Name: who.Name}
	switch {
	case key.Matches(k, pk.Back):
		m.people = nil
	case key.Matches(k, pk.Up):
		pp.cur = max(0, pp.cur-1)
	case key.Matches(k, pk.Down):
		pp.cur++
		pp.picked(m, t)
	case key.Matches(k, pk.Ignore) && any:
		m.notice = m.app.SetRelation(m.th, me, &m.lists, IgnoreList, person, !m.lists.Has(IgnoreList, who.ID))
		return t.update(m, t.raw) // draw the table again with (or without) their chat
	case key.Matches(k, pk.Block) && any:
		m.notice = m.app.SetRelation(m.th, me, &m.lists, BlockList, person, !m.lists.Has(BlockList, who.ID))
	case key.Matches(k, pk.Report) && any:
		return m.askReport(t, who)
	case key.Matches(k, pk.Befriend) && any && m.mayBefriend(who):
		said, err := m.app.Friends.Ask(me, person)
		if err != nil {
			m.notice = m.th.Err(err)
		} else {
			m.notice = m.th.Msg(said)
		}
	case key.Matches(k, pk.Remove) && pp.mayRemove(m, t):
		pp.confirm = true
		m.notice = pp.confirmText(m, t)
	}
	return nil
}

// mayBefriend: this session and who both have keys, and the server
// keeps friends.
func (m *root) mayBefriend(who table.SeatInfo) bool {
	return m.app.Friends != nil && !m.sess.Player.Guest && who.ID != "" && !strings.HasPrefix(who.ID, "guest:")
}

// askReport opens the prompt for the reason of a report about who.
func (m *root) askReport(t *tablePage, who table.SeatInfo) tea.Cmd {
	return m.openPrompt(m.th.T("ui.people.report_label", game.Text("Player", who.Name)), m.th.T("ui.people.report_hint"), "", ChatMax,
		func(v string) tea.Cmd {
			if m.at == t {
				m.notice = m.app.FileReport(m.th, m.sess.Player, &t.raw, who, v, &m.lastReport, time.Now())
			}
			return nil
		})
}

func (pp *peoplePicker) help(m *root, t *tablePage) []key.Binding {
	pk := pp.keys
	_, any := pp.picked(m, t)
	ignore, block, report, remove := pk.Ignore, pk.Block, pk.Report, pk.Remove
	ignore.SetEnabled(any)
	block.SetEnabled(any)
	report.SetEnabled(any && m.app.Reports != nil)
	remove.SetEnabled(pp.mayRemove(m, t))
	who, _ := pp.picked(m, t)
	befriend := pk.Befriend
	befriend.SetEnabled(any && m.mayBefriend(who))
	// esc before ↑/↓: at 80 columns the host's bar with f holds no more
	// (TestFriendsHelpBarsFit).
	return []key.Binding{befriend, ignore, block, report, remove, pk.Back, pk.Up}
}

// frame is the picker's screen: the players, what this session keeps of
// each, the notice, and the keys (or the prompt line).
func (pp *peoplePicker) frame(m *root) []string {
	t, th := m.at, m.th
	if t == nil {
		return nil
	}
	lines := []string{th.Title.Render(th.T("ui.people.title", game.Text("Code", t.raw.Room))), m.rule()}
	for _, l := range uikit.Wrap(th.T("ui.people.about"), m.width-1) {
		lines = append(lines, th.Muted.Render(l))
	}
	lines = append(lines, "")
	ps := people(&t.raw, m.sess.Player.ID)
	if len(ps) == 0 {
		lines = append(lines, th.Muted.Render("  "+th.T("ui.people.nobody")))
	}
	for i, s := range ps {
		mark := "  "
		if i == pp.cur {
			mark = "▸ "
		}
		var tags []string
		if m.lists.Has(IgnoreList, s.ID) {
			tags = append(tags, th.T("ui.people.tag.ignored"))
		}
		if m.lists.Has(BlockList, s.ID) {
			tags = append(tags, th.T("ui.people.tag.blocked"))
		}
		line := mark + pad(th, s.Name, 22)
		if len(tags) > 0 {
			line += " " + th.Muted.Render(strings.Join(tags, " · "))
		}
		lines = append(lines, th.Trunc(line, m.width))
	}
	if m.notice != "" {
		lines = append(lines, "", m.noticeBlock(m.notice))
	}
	bottom := m.shortHelp(pp.help(m, t))
	if m.input != nil {
		bottom = m.input.View()
	}
	return th.FitLinesWidth(uikit.FitLinesAbove(uikit.SplitLines(strings.Join(lines, "\n")), m.height-1, bottom), m.width)
}
