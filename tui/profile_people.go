package tui

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// listsPage is the profile's list of the players this player ignores and
// blocks (I on the profile): enter takes the one under the cursor off
// its list.
type listsPage struct {
	back page
	cur  int
	bind pagesKeys
}

func openLists(m *root, back page) {
	m.app.LoadLists(m.sess.Player, &m.lists)
	m.show(&listsPage{back: back, bind: newPagesKeys(m.th)})
}

// entry is one row: a player and the list they are on.
type listEntry struct {
	which RelationList
	who   Person
}

func (lp *listsPage) entries(m *root) []listEntry {
	var out []listEntry
	for _, q := range m.lists.Ignored {
		out = append(out, listEntry{IgnoreList, q})
	}
	for _, q := range m.lists.Blocked {
		out = append(out, listEntry{BlockList, q})
	}
	return out
}

func (lp *listsPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	es := lp.entries(m)
	if lp.bind.moveCursor(k, &lp.cur, len(es)) {
		return nil
	}
	switch {
	case key.Matches(k, lp.bind.Back):
		m.show(lp.back)
	case key.Matches(k, lp.bind.Open) && lp.cur < len(es):
		e := es[lp.cur]
		m.notice = m.app.SetRelation(m.th, m.sess.Player, &m.lists, e.which, e.who, false)
		lp.cur = max(0, min(lp.cur, len(es)-2))
	}
	return nil
}

func (lp *listsPage) help(m *root) []key.Binding {
	open := lp.bind.Open
	open.SetHelp("enter", m.th.T("ui.people.key.take_off"))
	open.SetEnabled(len(lp.entries(m)) > 0)
	return []key.Binding{lp.bind.Up, open, lp.bind.Back, m.keys.Help}
}

func (lp *listsPage) bar(m *root) string           { return m.shortHelp(lp.help(m)) }
func (lp *listsPage) keys(m *root) [][]key.Binding { return [][]key.Binding{lp.help(m)} }

func (lp *listsPage) view(m *root) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.Title.Render(th.T("ui.people.lists_title")) + "\n" + m.rule() + "\n")
	i := 0
	section := func(head, about string, list []Person) {
		b.WriteString("\n" + th.Header.Render(th.T(head)) + "\n")
		for _, l := range uikit.Wrap(th.T(about), m.width-2) {
			b.WriteString(th.Muted.Render(l) + "\n")
		}
		if len(list) == 0 {
			b.WriteString(th.Muted.Render("  "+th.T("ui.people.nobody_listed")) + "\n")
		}
		for _, q := range list {
			mark := "  "
			if i == lp.cur {
				mark = "▸ "
			}
			b.WriteString(th.Trunc(mark+q.Name, m.width) + "\n")
			i++
		}
	}
	section("ui.people.head.ignored", "ui.people.about_ignored", m.lists.Ignored)
	section("ui.people.head.blocked", "ui.people.about_blocked", m.lists.Blocked)
	if m.sess.Player.Guest {
		b.WriteString("\n" + th.Muted.Render(th.Trunc(th.T("ui.people.guest_note"), m.width)) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}
