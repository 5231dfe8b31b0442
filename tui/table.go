package tui

import (
	"context"
	"fmt"
	"strings"

	"bivouac/game"
	"bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

func (m *root) isHost() bool {
	return m.room != nil && m.room.Summary().Host == m.sess.Player.ID
}

func (m *root) hasBots() bool {
	g, ok := m.app.Games.Lookup(m.upd.Game)
	return ok && g.Bots != nil
}

// canGiveSeat: a seated player may hand the rest of a running game to a
// bot (the game has bots to give it to).
func (m *root) canGiveSeat() bool {
	return m.screen != nil && m.upd.Seat >= 0 && m.upd.Started && !m.upd.Over && m.hasBots()
}

// onTableKey: chat and help first, then the game screen (or the waiting room).
func (m *root) onTableKey(k tea.KeyMsg) tea.Cmd {
	if m.confirmGiveUp {
		m.confirmGiveUp = false
		m.notice = ""
		if k.String() == "y" && m.canGiveSeat() {
			m.toLobby(true)
			m.notice = "A bot plays your seat for the rest of that game."
		}
		return nil
	}
	switch {
	case key.Matches(k, m.keys.LeaveSeat) && m.canGiveSeat():
		m.confirmGiveUp = true
		m.notice = "Give your seat to a bot for this game? y: yes · any other key: no"
		return nil
	case key.Matches(k, m.keys.Talk) && m.upd.Seat >= 0:
		hint := "say something to the table"
		if h, ok := m.screen.(uikit.ChatHinter); ok {
			hint = h.ChatHint()
		}
		return m.openPrompt(promptChat, hint+" (enter sends, esc cancels)", "")
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
		return nil
	}
	if m.screen != nil {
		return m.screen.Update(k)
	}
	return m.onWaitingKey(k)
}

func (m *root) onWaitingKey(k tea.KeyMsg) tea.Cmd {
	room, box := m.room, m.box
	switch {
	case key.Matches(k, m.keys.Lobby):
		m.toLobby(false)
	case key.Matches(k, m.keys.LeaveSeat):
		m.toLobby(true)
	case key.Matches(k, m.keys.Up):
		m.seatCur = max(0, m.seatCur-1)
	case key.Matches(k, m.keys.Down):
		m.seatCur = min(max(0, len(m.upd.Seats)-1), m.seatCur+1)
	case key.Matches(k, m.keys.Start) && m.isHost():
		return m.roomCall(func(ctx context.Context) error { return room.Start(ctx, box) })
	case key.Matches(k, m.keys.Bot) && m.isHost() && m.seatCur < len(m.upd.Seats):
		g, _ := m.app.Games.Lookup(m.upd.Game)
		if g.Bots == nil {
			return nil
		}
		s := m.upd.Seats[m.seatCur]
		level := ""
		if s.Bot == "" {
			level = g.Bots.Levels()[0]
		} else { // cycle through the levels, then back to an open seat
			levels := g.Bots.Levels()
			for i, l := range levels {
				if l == s.Bot && i+1 < len(levels) {
					level = levels[i+1]
				}
			}
		}
		seat := game.Seat(m.seatCur)
		return m.roomCall(func(ctx context.Context) error { return room.SetBot(ctx, box, seat, level) })
	}
	return nil
}

func (m *root) tableView() string {
	if m.screen != nil {
		view := m.screen.View()
		if q, ok := m.screen.(uikit.Quiet); m.notice != "" && !(ok && q.Quiet()) { // a session-level problem (busy, closed) over the table
			lines := strings.Split(view, "\n")
			if len(lines) > 0 {
				lines[len(lines)-1] = m.th.Notice.Render(" " + uikit.Trunc(m.notice, m.width-2) + " ")
			}
			view = strings.Join(lines, "\n")
		}
		return view
	}
	return m.waitingView()
}

// waitingView is the table before the game starts: who sits where, the
// code to share, and (for the host) how to start.
func (m *root) waitingView() string {
	th, u := m.th, m.upd
	var b strings.Builder
	title := u.Title
	if title == "" && m.room != nil {
		title = m.room.Summary().Title
	}
	b.WriteString(th.Title.Render("Table "+u.Room) + th.Muted.Render(" · "+title) + "\n")
	b.WriteString(th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	hint := "ssh -p 2222 host"
	if m.app.JoinHint != "" {
		hint = m.app.JoinHint
	}
	b.WriteString("Friends join with  " + th.Accent.Render(strings.Replace(hint, "ssh ", "ssh -t ", 1)+" join "+u.Room) + "\n")
	b.WriteString(th.Muted.Render("or pick the table in their lobby.") + "\n\n")
	b.WriteString(th.Header.Render("Seats") + "\n")
	for i, s := range u.Seats {
		mark := "  "
		if i == m.seatCur {
			mark = "▸ "
		}
		var who string
		switch {
		case s.Bot != "":
			who = th.Muted.Render(s.Name)
		case s.Name == "":
			who = th.Muted.Render("(open)")
		default:
			who = s.Name
			if b := badgeMark(s.Badge); b != "" {
				who += " " + th.Good.Render(b)
			}
			if game.Seat(i) == u.Seat {
				who = th.Accent.Render(who + " (you)")
			}
			if s.Connected {
				who += th.Good.Render("  ● here")
			} else {
				who += th.Muted.Render("  ○ away")
			}
		}
		b.WriteString(fmt.Sprintf("%s%d. %s\n", mark, i+1, who))
	}
	b.WriteString("\n")
	switch {
	case u.Seat < 0:
		b.WriteString(th.Muted.Render("You are watching. The game starts when the host says so.") + "\n")
	case m.isHost():
		b.WriteString(th.Strong.Render("You are the host.") + " Press s to start; open seats get bots.\n")
		if m.hasBots() {
			b.WriteString(th.Muted.Render("b on a seat adds a bot, again for a stronger one, again to open the seat.") + "\n")
		}
	default:
		b.WriteString(th.Muted.Render("Waiting for the host to start the game.") + "\n")
	}
	if m.notice != "" || u.Notice != "" {
		n := m.notice
		if n == "" {
			n = u.Notice
		}
		b.WriteString(m.noticeBlock(n) + "\n")
	}
	b.WriteString("\n" + th.Header.Render("Table talk") + "\n")
	used := lipgloss.Height(b.String())
	room := max(1, m.height-1-used)
	var lines []string
	for _, e := range u.Log {
		text, style := e.Text, th.Muted
		if e.Kind == game.Chat {
			style = th.Chat
			if int(e.From) >= 0 && int(e.From) < len(u.Seats) {
				text = u.Seats[e.From].Name + ": " + text
			}
		}
		lines = append(lines, style.Render(truncate(text, m.width-2)))
	}
	if len(lines) > room {
		lines = lines[len(lines)-room:]
	}
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}
