package tui

import (
	"errors"
	"fmt"
	"strings"

	"bivouac/game"
	"bivouac/table"
	"bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The profile, campaign and replay pages: what Bivouac remembers.

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
		Play:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "play next mission")),
		Step:  key.NewBinding(key.WithKeys("right", "l", " "), key.WithHelp("→", "next")),
		Prev:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "previous")),
		First: key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/G", "start/end")),
		Last:  key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "end")),
	}
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

// ---- profile -------------------------------------------------------------

func (m *root) openProfile() {
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
	m.profile, m.games, m.listCur, m.page, m.notice = p, games, 0, pageProfile, ""
}

func (m *root) onProfileKey(k tea.KeyMsg) tea.Cmd {
	pk := m.pk
	switch {
	case key.Matches(k, pk.Back):
		m.page = pageLobby
	case key.Matches(k, pk.Up):
		m.listCur = max(0, m.listCur-1)
	case key.Matches(k, pk.Down):
		m.listCur = min(max(0, len(m.games)-1), m.listCur+1)
	case key.Matches(k, pk.Open) && m.listCur < len(m.games):
		m.openReplay(m.games[m.listCur].Code)
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
	}
	return nil
}

func (m *root) profileView() string {
	th, p := m.th, m.profile
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
	if len(m.games) == 0 {
		b.WriteString(th.Muted.Render("  None yet.") + "\n")
	}
	for i, g := range m.games {
		mark := "  "
		if i == m.listCur {
			mark = "▸ "
		}
		res := th.Danger.Render("lost")
		if g.Won {
			res = th.Good.Render("won ")
		}
		line := fmt.Sprintf("%s%s  %-5s %s  %s", mark, g.When.Format("02 Jan 15:04"), g.Code, res, truncate(g.Title, 34))
		b.WriteString(truncate(line, m.width+20) + "\n")
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

// ---- campaigns -----------------------------------------------------------

func (m *root) openCampaigns() {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return
	}
	cs, err := rec.Campaigns(m.sess.Player.ID)
	if err != nil {
		m.notice = "could not read your campaigns: " + err.Error()
		return
	}
	if m.newPlayers == 0 {
		m.newPlayers = 2
	}
	m.campaigns, m.listCur, m.page, m.notice = cs, 0, pageCampaigns, ""
}

func (m *root) onCampaignsKey(k tea.KeyMsg) tea.Cmd {
	pk := m.pk
	switch {
	case key.Matches(k, pk.Back):
		m.page = pageLobby
	case key.Matches(k, pk.Up):
		m.listCur = max(0, m.listCur-1)
	case key.Matches(k, pk.Down):
		m.listCur = min(max(0, len(m.campaigns)-1), m.listCur+1)
	case key.Matches(k, pk.Prev):
		m.newPlayers = max(2, m.newPlayers-1)
	case key.Matches(k, pk.Step):
		m.newPlayers = min(5, m.newPlayers+1)
	case key.Matches(k, pk.New):
		return m.openPrompt(promptCampaignName, fmt.Sprintf("name of the new %d-player campaign", m.newPlayers), "")
	case key.Matches(k, pk.Join):
		return m.openPrompt(promptCampaignCode, "campaign code, e.g. 7KQ2XM", "")
	case key.Matches(k, pk.Open) && m.listCur < len(m.campaigns):
		m.campaign, m.page = m.campaigns[m.listCur], pageCampaign
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
	}
	return nil
}

func (m *root) createCampaign(name string) {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return
	}
	c, err := rec.CreateCampaign(m.sess.Player, name, m.newPlayers)
	if err != nil {
		m.notice = err.Error()
		return
	}
	m.openCampaigns()
	m.campaign, m.page = c, pageCampaign
	m.notice = "Campaign created. Friends join it with the code " + c.Code + " (lobby: m, then c)."
}

func (m *root) joinCampaign(code string) {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return
	}
	if !m.mayGuess() {
		return
	}
	c, err := rec.JoinCampaign(m.sess.Player, table.NormalizeCode(code))
	if errors.Is(err, ErrNoSuchCampaign) {
		m.wrongGuess()
	}
	if err != nil {
		m.notice = err.Error()
		return
	}
	m.openCampaigns()
	m.campaign, m.page = c, pageCampaign
	m.notice = "You joined " + c.Name + "."
}

func (m *root) onCampaignKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.pk.Back):
		m.openCampaigns()
	case key.Matches(k, m.pk.Play):
		rec, err := m.records()
		if err != nil {
			m.notice = err.Error()
			return nil
		}
		g, spec, err := rec.CampaignTable(m.campaign, "easy")
		if err != nil {
			m.notice = err.Error()
			return nil
		}
		return m.createAndJoin(g, spec)
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
	}
	return nil
}

func (m *root) campaignsView() string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.Title.Render("Campaigns") + th.Muted.Render(" · The Grizzled, +2 trials cards per win; a win at 30 makes you a veteran") + "\n")
	b.WriteString(th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	if len(m.campaigns) == 0 {
		b.WriteString(th.Muted.Render("  You are in no campaign yet.") + "\n")
	}
	for i, c := range m.campaigns {
		mark := "  "
		if i == m.listCur {
			mark = "▸ "
		}
		vet := ""
		if c.Veteran {
			vet = th.Good.Render(" ★")
		}
		b.WriteString(fmt.Sprintf("%s%-6s %-20s %d players  %s %2d/%d  won %d lost %d%s\n", mark, c.Code, truncate(c.Name, 20),
			c.Players, m.bar(c.Trials, c.Target, 14), c.Trials, c.Target, c.Wins, c.Losses, vet))
	}
	b.WriteString("\n" + fmt.Sprintf("New campaign for %s players (←/→ to change; 2 players is the rulebook's campaign)\n",
		th.Accent.Render(fmt.Sprintf("◂ %d ▸", m.newPlayers))))
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// bar is a progress bar of n out of total in width cells.
func (m *root) bar(n, total, width int) string {
	if total <= 0 {
		total = 1
	}
	fill := min(width, max(0, n*width/total))
	return m.th.Good.Render(strings.Repeat("█", fill)) + m.th.Muted.Render(strings.Repeat("░", width-fill))
}

func (m *root) campaignView() string {
	th, c := m.th, m.campaign
	var b strings.Builder
	b.WriteString(th.Title.Render("Campaign · "+c.Name) + th.Muted.Render(" · code "+c.Code) + "\n")
	b.WriteString(th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	b.WriteString(fmt.Sprintf("Trials pile for the next mission: %s %d of %d\n", m.bar(c.Trials, c.Target, 30), c.Trials, c.Target))
	switch {
	case c.Veteran:
		b.WriteString(th.Good.Render("★ Won at 30: everyone who played that mission is a veteran.") + "\n")
	case c.Trials >= c.Target:
		b.WriteString(th.Warning.Render("Win this mission to earn veteran status.") + "\n")
	}
	b.WriteString(fmt.Sprintf("%d players · won %d · lost %d · members: %s\n", c.Players, c.Wins, c.Losses, strings.Join(c.Members, ", ")))
	b.WriteString(th.Muted.Render(fmt.Sprintf("Friends join with code %s (lobby: m, then c). Open seats at a mission get bots.", c.Code)) + "\n\n")
	b.WriteString(th.Header.Render("Missions") + "\n")
	if len(c.History) == 0 {
		b.WriteString(th.Muted.Render("  None yet: press p to play the first.") + "\n")
	}
	room := max(1, m.height-14)
	hist := c.History
	if len(hist) > room {
		hist = hist[len(hist)-room:]
	}
	for _, h := range hist {
		res := th.Danger.Render("lost")
		if h.Won {
			res = th.Good.Render("won ")
		}
		b.WriteString(truncate(fmt.Sprintf("  %s  %s  then %2d trials  %s  (%s)", h.When.Format("02 Jan 2006 15:04"), res, h.Trials,
			strings.Join(h.Players, ", "), h.Room), m.width+20) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// ---- replay --------------------------------------------------------------

func (m *root) openReplay(code string) {
	if m.app.Records == nil {
		m.notice = "this server keeps no records"
		return
	}
	r, err := m.app.Records.Replay(code)
	if err != nil {
		m.notice = err.Error()
		return
	}
	g, ok := m.app.Games.Lookup(r.Game)
	if !ok || g.Screen == nil {
		m.notice = "this server cannot show games of " + r.Game
		return
	}
	m.replay, m.step, m.page, m.notice = &r, 0, pageReplay, ""
	m.replayScreen = g.Screen(m.th)
	m.sizeScreen()
	m.showStep()
}

func (m *root) showStep() {
	r := m.replay
	var log []game.Event
	for _, s := range r.Steps[:m.step+1] {
		log = append(log, s.Events...)
	}
	if len(log) > 40 {
		log = log[len(log)-40:]
	}
	last := m.step == len(r.Steps)-1
	u := table.Update{Room: r.Code, Title: r.Title, Game: r.Game, Seat: game.Spectator, Seq: m.step,
		View: r.Steps[m.step].View, Log: log, Seats: r.Seats, Started: true, Over: last && r.End != nil}
	if u.Over {
		u.Result = r.End
	}
	m.replayScreen.Update(uikit.UpdateMsg{Update: u})
}

func (m *root) onReplayKey(k tea.KeyMsg) tea.Cmd {
	pk, n := m.pk, len(m.replay.Steps)
	switch {
	case key.Matches(k, pk.Back):
		m.replay, m.replayScreen, m.page = nil, nil, pageLobby
		return nil
	case key.Matches(k, pk.Step):
		m.step = min(n-1, m.step+1)
	case key.Matches(k, pk.Prev):
		m.step = max(0, m.step-1)
	case key.Matches(k, pk.First):
		if k.String() == "G" || k.String() == "end" {
			m.step = n - 1
		} else {
			m.step = 0
		}
	case key.Matches(k, pk.Last):
		m.step = n - 1
	case key.Matches(k, m.keys.Help):
		m.showHelp = true
		return nil
	default:
		return nil
	}
	m.showStep()
	return nil
}

func (m *root) replayView() string { return m.replayScreen.View() }

// replayBar is the replay's help bar: where we are, then the keys.
func (m *root) replayBar() string {
	status := m.th.Accent.Render(fmt.Sprintf("Replay of %s · move %d of %d", m.replay.Code, m.step, len(m.replay.Steps)-1))
	return status + m.th.HelpSep.Render(" • ") + m.shortHelp(m.pagesHelp())
}

func (m *root) pagesHelp() []key.Binding {
	pk := m.pk
	switch m.page {
	case pageProfile:
		open := pk.Open
		open.SetHelp("enter", "replay")
		return []key.Binding{pk.Up, open, pk.Back, m.keys.Help}
	case pageCampaigns:
		open := pk.Open
		open.SetEnabled(len(m.campaigns) > 0)
		players := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "players"))
		return []key.Binding{pk.Up, open, players, pk.New, pk.Join, pk.Back}
	case pageCampaign:
		return []key.Binding{pk.Play, pk.Back, m.keys.Help}
	case pageReplay:
		return []key.Binding{pk.Prev, pk.Step, pk.First, pk.Back}
	}
	return nil
}
