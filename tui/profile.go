package tui

import (
	"fmt"
	"strings"

	"bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The pages of what Bivouac remembers: the profile (here), the campaigns
// (campaigns.go) and replays (replay.go).

type pagesKeys struct {
	Up, Down, Open, Back, New, Join, Play, Step, Prev, First, Last key.Binding
}

func newPagesKeys() pagesKeys {
	return pagesKeys{
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "select")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:  key.NewBinding(key.WithKeys("esc", "Q", "q"), key.WithHelp("esc", "back")),
		New:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new campaign")),
		Join:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "join by code")),
		Play:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play the next game")),
		Step:  key.NewBinding(key.WithKeys("right", "l", " "), key.WithHelp("→", "next")),
		Prev:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "previous")),
		First: key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/G", "start/end")),
		Last:  key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "end")),
	}
}

// moveCursor moves a list's cursor for ↑/↓ and reports whether k was one.
func (k pagesKeys) moveCursor(msg tea.KeyMsg, cur *int, n int) bool {
	switch {
	case key.Matches(msg, k.Up):
		*cur = max(0, *cur-1)
	case key.Matches(msg, k.Down):
		*cur = min(max(0, n-1), *cur+1)
	default:
		return false
	}
	return true
}

// records is the App's Records, or an error saying why there are none.
func (m *root) records() (Records, error) {
	if m.app.Records == nil {
		return nil, fmt.Errorf("this server keeps no records")
	}
	if m.sess.Player.Guest {
		return nil, fmt.Errorf("guests keep no profile or campaigns: ssh in with a key to have them")
	}
	return m.app.Records, nil
}

// profilePage is the player's profile: stats and recent games, each of
// which can be replayed.
type profilePage struct {
	profile Profile
	games   []GameRecord
	cur     int
	bind    pagesKeys
}

func openProfile(m *root) {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return
	}
	p, err := rec.Profile(m.sess.Player.ID)
	if err != nil {
		m.notice = "could not read your profile: " + err.Error()
		return
	}
	games, err := rec.Finished(m.sess.Player.ID, 12)
	if err != nil {
		m.notice = "could not read your games: " + err.Error()
	}
	m.show(&profilePage{profile: p, games: games, bind: newPagesKeys()})
	m.notice = ""
}

func (p *profilePage) key(m *root, k tea.KeyMsg) tea.Cmd {
	pk := p.bind
	if pk.moveCursor(k, &p.cur, len(p.games)) {
		return nil
	}
	switch {
	case key.Matches(k, pk.Back):
		m.show(m.lobby)
	case key.Matches(k, pk.Open) && p.cur < len(p.games):
		openReplay(m, p.games[p.cur].Code, p)
	}
	return nil
}

func (p *profilePage) help(m *root) []key.Binding {
	open := p.bind.Open
	open.SetHelp("enter", "replay")
	return []key.Binding{p.bind.Up, open, p.bind.Back, m.keys.Help}
}

func (p *profilePage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *profilePage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func (pp *profilePage) view(m *root) string {
	th, p := m.th, pp.profile
	var b strings.Builder
	title := th.Title.Render("Profile · " + p.Name)
	if p.Veteran {
		title += "  " + th.Good.Render("★ veteran since "+p.VeteranSince.Format("2 Jan 2006"))
	}
	b.WriteString(title + "\n" + th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	b.WriteString(th.Muted.Render(fmt.Sprintf("Key %s · first seen %s · last seen %s",
		shortID(p.ID), p.FirstSeen.Format("2 Jan 2006"), p.LastSeen.Format("2 Jan 2006 15:04"))) + "\n\n")
	b.WriteString(th.Header.Render("Games") + "\n")
	if len(p.Stats) == 0 {
		b.WriteString(th.Muted.Render("  No finished games yet.") + "\n")
	}
	for _, s := range p.Stats {
		rate := 0
		if s.Played > 0 {
			rate = 100 * s.Won / s.Played
		}
		variant := s.Variant
		if variant == "" {
			variant = "-"
		}
		b.WriteString(fmt.Sprintf("  %-10s %-10s %d players  played %3d  won %3d  (%d%%)\n", s.Game, variant, s.Players, s.Played, s.Won, rate))
	}
	b.WriteString("\n" + th.Header.Render("Recent games") + th.Muted.Render("  (enter replays one)") + "\n")
	if len(pp.games) == 0 {
		b.WriteString(th.Muted.Render("  None yet.") + "\n")
	}
	for i, g := range pp.games {
		mark := "  "
		if i == pp.cur {
			mark = "▸ "
		}
		res := th.Danger.Render("lost")
		if g.Won {
			res = th.Good.Render("won ")
		}
		line := fmt.Sprintf("%s%s  %-5s %s  %s", mark, g.When.Format("02 Jan 15:04"), g.Code, res, truncate(g.Title, 34))
		b.WriteString(uikit.Trunc(line, m.width) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// shortID abbreviates a key fingerprint for display.
func shortID(id string) string {
	if len(id) > 19 {
		return id[:19] + "…"
	}
	return id
}
