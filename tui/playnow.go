package tui

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/playnow"
	"github.com/bivouac-ssh/bivouac/sanitize"

	tea "github.com/charmbracelet/bubbletea"
)

// playCommand is the game "ssh host play GAME" asks for ("" : not that
// command).
func playCommand(args []string) string {
	if len(args) == 2 && strings.EqualFold(args[0], "play") {
		return strings.ToLower(args[1])
	}
	return ""
}

// playNow sits the session at a table of game id that waits for players
// (package playnow: a friend's first, then the nearest to starting), or
// opens one with the game's usual settings and sits there.
func (m *root) playNow(id string) tea.Cmd {
	g, ok := m.app.Games.Lookup(id)
	if !ok {
		m.notice = m.th.T("ui.play.no_game", game.Text("Game", sanitize.Line(id, 20)), game.Text("Games", m.app.Games.IDs()))
		return nil
	}
	friend := func(p string) bool { _, ok := m.where.Friend(p); return ok }
	if code, ok := playnow.Pick(m.app.Hub.List(), g.Game.ID(), m.sess.Player.ID, friend); ok {
		return func() tea.Msg { return joinMsg{code: code} }
	}
	spec, err := g.BuildTable(g.FormDefaults())
	if err != nil {
		m.notice = m.th.Err(err)
		return nil
	}
	return m.createAndJoin(g, spec)
}
