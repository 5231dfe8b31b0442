package tui

import (
	"fmt"
	"slices"
	"strings"

	"bivouac/table"
	"bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// visibleRooms are the rooms this player may see listed: private tables
// only to their host (others join them by code).
func (m *root) visibleRooms() []table.Summary {
	if m.visFor != nil && len(m.rooms) > 0 && len(m.visFor) == len(m.rooms) && &m.visFor[0] == &m.rooms[0] {
		return m.vis
	}
	m.vis, m.visFor = m.filterRooms(), m.rooms
	return m.vis
}

func (m *root) filterRooms() []table.Summary {
	out := m.rooms[:0:0]
	for _, r := range m.rooms {
		me := m.sess.Player.ID
		if r.Status == table.StatusClosed || (r.Private && r.Host != me && !slices.Contains(r.Allowed, me) && !slices.Contains(r.Players, me)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func (m *root) onLobbyKey(k tea.KeyMsg) tea.Cmd {
	rooms := m.visibleRooms()
	switch {
	case key.Matches(k, m.keys.Quit):
		m.closed = quitGoodbye
		return tea.Quit
	case key.Matches(k, m.keys.Up):
		m.cursor = max(0, m.cursor-1)
	case key.Matches(k, m.keys.Down):
		m.cursor = min(max(0, len(rooms)-1), m.cursor+1)
	case key.Matches(k, m.keys.Enter), key.Matches(k, m.keys.Watch):
		if m.cursor < len(rooms) {
			watch := key.Matches(k, m.keys.Watch)
			code := rooms[m.cursor].Code
			return func() tea.Msg { return joinMsg{code: code, watch: watch} }
		}
	case key.Matches(k, m.keys.New):
		m.openForm()
	case key.Matches(k, m.keys.Code):
		return m.openPrompt(promptCode, "table code, e.g. K7QX", "")
	case key.Matches(k, m.keys.Profile):
		m.openProfile()
	case key.Matches(k, m.keys.Campaigns):
		m.openCampaigns()
	case key.Matches(k, m.keys.Rename):
		return m.openPrompt(promptName, "your name (1–20 letters)", m.sess.Player.Name)
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
	}
	return nil
}

func (m *root) lobbyView() string {
	th := m.th
	var b strings.Builder
	b.WriteString(m.lobbyTitle())
	b.WriteString(th.Header.Render("Tables") + "\n")

	rooms := m.visibleRooms()
	if len(rooms) == 0 {
		b.WriteString(th.Muted.Render("  No tables yet. Press n to start one, or c to join a private table by its code.") + "\n")
	}
	listHeight := m.height - 9
	first := 0
	if m.cursor >= listHeight {
		first = m.cursor - listHeight + 1
	}
	for i := first; i < len(rooms) && i < first+listHeight; i++ {
		b.WriteString(m.roomLine(rooms[i], i == m.cursor) + "\n")
	}
	b.WriteString("\n")
	if m.notice != "" {
		b.WriteString(m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// lobbyTitle is the lobby's first lines (title, player, rule, guest code),
// drawn again only when the width or the player's name or rank changes.
func (m *root) lobbyTitle() string {
	h, p := &m.lobbyHead, m.sess.Player
	if h.text != "" && h.width == m.width && h.name == p.Name && h.badge == p.Badge {
		return h.text
	}
	th := m.th
	who := th.Accent.Render(p.Name)
	if p.Badge == BadgeVeteran {
		who += " " + th.Good.Render("★ veteran")
	}
	if p.Guest {
		who += th.Muted.Render(" (guest)")
	}
	title := th.Title.Render("Bivouac") + th.Muted.Render(" · card games over ssh")
	gap := max(1, m.width-lipgloss.Width(title)-lipgloss.Width(who))
	var b strings.Builder
	b.WriteString(title + strings.Repeat(" ", gap) + who + "\n")
	b.WriteString(th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	if p.Guest && m.sess.Guest != "" {
		for _, line := range uikit.Wrap(guestHint(m.sess.Guest, m.app.JoinHint), m.width) {
			b.WriteString(th.Muted.Render(line) + "\n")
		}
	}
	h.width, h.name, h.badge, h.text = m.width, p.Name, p.Badge, b.String()
	return h.text
}

// guestHint tells a keyless guest their reclaim code, which only this
// session ever shows, and the exact command to come back with it.
func guestHint(code, joinHint string) string {
	again := "ssh " + code + "@host"
	if i := strings.LastIndexByte(joinHint, ' '); i > 0 {
		again = joinHint[:i+1] + code + "@" + joinHint[i+1:]
	}
	return "Your guest code is " + code + " (keep it to yourself). To sit back down later: " + again
}

func (m *root) roomLine(r table.Summary, selected bool) string {
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
		status = th.Good.Render(fmt.Sprintf("waiting · %d open", r.Open))
	case table.StatusPlaying:
		status = th.Accent.Render("playing")
	case table.StatusOver:
		status = th.Muted.Render("finished")
	}
	var names []string
	for _, s := range r.Seats {
		if s.Name != "" {
			n := s.Name
			n += badgeMark(s.Badge)
			names = append(names, n)
		}
	}
	mark := "  "
	if selected {
		mark = "▸ "
	}
	line := fmt.Sprintf("%s%-5s %-34s %d/%d  ", mark, r.Code, truncate(r.Title, 34), seated, len(r.Seats))
	rest := status
	if slices.Contains(r.Players, m.sess.Player.ID) && r.Status != table.StatusOver {
		rest = th.Accent.Render("your seat · ") + rest
	}
	if r.Campaign != "" {
		rest += th.Muted.Render(" · campaign")
	}
	if r.Private {
		rest += th.Muted.Render(" · private")
	}
	if len(names) > 0 {
		rest += th.Muted.Render(" · " + strings.Join(names, ", "))
	}
	out := line + rest
	out = lipgloss.NewStyle().MaxWidth(m.width).Render(out)
	if selected {
		return th.Strong.Render(out)
	}
	return out
}

// truncate cuts s to n display cells with an ellipsis.
func truncate(s string, n int) string {
	if lipgloss.Width(s) <= n {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > n {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
