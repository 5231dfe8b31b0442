package tui

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The server's name and message of the day (App.ServerName, App.MOTD): the
// name heads the lobby; the message is the lobby's first screen, full
// screen until a key is pressed, and is said in plain mode on arrival and
// with help.

// motd is the message of the day in l, "" for none.
func (a *App) motd(l i18n.Lang) string {
	if a.MOTD == nil {
		return ""
	}
	return a.MOTD(l)
}

// motdShowing reports whether the lobby still shows the message of the
// day instead of the tables.
func (p *lobbyPage) motdShowing(m *root) bool {
	return !p.motdDone && m.app.motd(m.th.Lang()) != ""
}

// motdView is the lobby's first screen: its title lines, the message
// wrapped to the width and cut to the height, and how to go on.
func (p *lobbyPage) motdView(m *root) string {
	th := m.th
	var b strings.Builder
	b.WriteString(p.title(m))
	room := max(1, m.height-6) // title, rule, blank, the line to go on, help bar
	var lines []string
	for _, l := range strings.Split(m.app.motd(th.Lang()), "\n") {
		lines = append(lines, uikit.Wrap(l, max(10, m.width-2))...)
	}
	if len(lines) > room {
		lines = lines[:room]
	}
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("\n" + th.Muted.Render(th.Trunc("  "+th.T("access.motd_continue"), m.width)) + "\n")
	return b.String()
}
