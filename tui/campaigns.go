package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"bivouac/table"
	"bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// campaignsPage lists the player's campaigns; from it one starts or joins one.
type campaignsPage struct {
	campaigns  []Campaign
	cur        int
	newPlayers int // seats of a campaign created from here
	bind       pagesKeys
}

// campaignPage is one campaign: its climb, its missions, the next one.
type campaignPage struct {
	campaign Campaign
	bind     pagesKeys
}

// openCampaigns shows the player's campaigns (or, with open, that one).
func openCampaigns(m *root) *campaignsPage {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return nil
	}
	cs, err := rec.Campaigns(m.sess.Player.ID)
	if err != nil {
		m.notice = "could not read your campaigns: " + err.Error()
		return nil
	}
	p := &campaignsPage{campaigns: cs, newPlayers: 2, bind: newPagesKeys()}
	if old, ok := m.page.(*campaignsPage); ok {
		p.newPlayers = old.newPlayers
	}
	m.show(p)
	m.notice = ""
	return p
}

// openCampaign shows one campaign, and keeps it fresh while it is on
// screen: a friend who joins, or a game that ends, shows up by itself.
func openCampaign(m *root, c Campaign) tea.Cmd {
	p := &campaignPage{campaign: c, bind: newPagesKeys()}
	m.show(p)
	return p.refreshSoon()
}

// campaignRefresh asks the campaign page on screen to read its campaign again.
type campaignRefresh struct{ page *campaignPage }

// campaignEvery is how often an open campaign page reads its campaign.
const campaignEvery = 2 * time.Second

func (p *campaignPage) refreshSoon() tea.Cmd {
	return tea.Tick(campaignEvery, func(time.Time) tea.Msg { return campaignRefresh{p} })
}

// refresh reads the campaign again if this page is still on screen.
func (p *campaignPage) refresh(m *root) tea.Cmd {
	if m.page != page(p) || m.app.Records == nil {
		return nil // the page was left: the refreshing stops with it
	}
	if c, err := m.app.Records.Campaign(p.campaign.Code); err == nil {
		p.campaign = c
	}
	return p.refreshSoon()
}

func (p *campaignsPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	pk := p.bind
	if pk.moveCursor(k, &p.cur, len(p.campaigns)) {
		return nil
	}
	switch {
	case key.Matches(k, pk.Back):
		m.show(m.lobby)
	case key.Matches(k, pk.Prev):
		p.newPlayers = max(2, p.newPlayers-1)
	case key.Matches(k, pk.Step):
		p.newPlayers = min(5, p.newPlayers+1)
	case key.Matches(k, pk.New):
		players := p.newPlayers
		return m.openPrompt("campaign name", fmt.Sprintf("the new %d-player campaign", players), "", 24,
			func(name string) tea.Cmd { return createCampaign(m, name, players) })
	case key.Matches(k, pk.Join):
		return m.openPrompt("campaign code", "e.g. 7KQ2XM", "", 12, func(code string) tea.Cmd { return joinCampaign(m, code) })
	case key.Matches(k, pk.Open) && p.cur < len(p.campaigns):
		return openCampaign(m, p.campaigns[p.cur])
	}
	return nil
}

func (p *campaignsPage) help(m *root) []key.Binding {
	open := p.bind.Open
	open.SetEnabled(len(p.campaigns) > 0)
	players := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "players"))
	return []key.Binding{p.bind.Up, open, players, p.bind.New, p.bind.Join, p.bind.Back}
}

func (p *campaignsPage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *campaignsPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func createCampaign(m *root, name string, players int) tea.Cmd {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return nil
	}
	c, err := rec.CreateCampaign(m.sess.Player, name, players)
	if err != nil {
		m.notice = err.Error()
		return nil
	}
	cmd := openCampaign(m, c)
	m.notice = "Campaign created. Friends join it with the code " + c.Code + " (lobby: m, then c)."
	return cmd
}

func joinCampaign(m *root, code string) tea.Cmd {
	rec, err := m.records()
	if err != nil {
		m.notice = err.Error()
		return nil
	}
	if !m.mayGuess() {
		return nil
	}
	c, err := rec.JoinCampaign(m.sess.Player, table.NormalizeCode(code))
	if errors.Is(err, ErrNoSuchCampaign) {
		m.wrongGuess()
	}
	if err != nil {
		m.notice = err.Error()
		return nil
	}
	cmd := openCampaign(m, c)
	m.notice = "You joined " + c.Name + "."
	return cmd
}

func (p *campaignPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, p.bind.Back):
		openCampaigns(m)
	case key.Matches(k, p.bind.Play):
		rec, err := m.records()
		if err != nil {
			m.notice = err.Error()
			return nil
		}
		g, spec, err := rec.CampaignTable(p.campaign, "easy")
		if err != nil {
			m.notice = err.Error()
			return nil
		}
		return m.createAndJoin(g, spec)
	}
	return nil
}

func (p *campaignPage) help(m *root) []key.Binding {
	return []key.Binding{p.bind.Play, p.bind.Back, m.keys.Help}
}

func (p *campaignPage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *campaignPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func (p *campaignsPage) view(m *root) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.Title.Render("Campaigns") + th.Muted.Render(" · The Grizzled: +2 trials cards a win, a win at 30 makes veterans") + "\n")
	b.WriteString(th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	if len(p.campaigns) == 0 {
		b.WriteString(th.Muted.Render("  You are in no campaign yet.") + "\n")
	}
	for i, c := range p.campaigns {
		mark := "  "
		if i == p.cur {
			mark = "▸ "
		}
		vet := ""
		if c.Veteran {
			vet = th.Good.Render(" ★")
		}
		b.WriteString(fmt.Sprintf("%s%-6s %-20s %d players  %s %2d/%d  won %d lost %d%s\n", mark, c.Code, truncate(c.Name, 20),
			c.Players, m.bar(c.Trials, c.Target, 14), c.Trials, c.Target, c.Wins, c.Losses, vet))
	}
	b.WriteString("\nNew campaign for " + th.Accent.Render(fmt.Sprintf("◂ %d ▸", p.newPlayers)) + " players\n")
	b.WriteString(th.Muted.Render("←/→ changes it; the rulebook's campaign is for 2 players") + "\n")
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

func (p *campaignPage) view(m *root) string {
	th, c := m.th, p.campaign
	var b strings.Builder
	b.WriteString(th.Title.Render("Campaign · "+c.Name) + th.Muted.Render(" · code "+c.Code) + "\n")
	b.WriteString(th.Rule.Render(strings.Repeat("─", m.width)) + "\n")
	b.WriteString(fmt.Sprintf("Trials pile for the next game: %s %d of %d\n", m.bar(c.Trials, c.Target, 30), c.Trials, c.Target))
	switch {
	case c.Veteran:
		b.WriteString(th.Good.Render("★ Won at 30: everyone who played that game is a veteran.") + "\n")
	case c.Trials >= c.Target:
		b.WriteString(th.Warning.Render("Win this game to earn veteran status.") + "\n")
	}
	b.WriteString(uikit.Trunc(fmt.Sprintf("%d players · won %d · lost %d · members: %s", c.Players, c.Wins, c.Losses, strings.Join(c.Members, ", ")), m.width) + "\n")
	for _, l := range uikit.Wrap(fmt.Sprintf("Friends join with code %s (lobby: m, then c). Open seats at a game get bots.", c.Code), m.width) {
		b.WriteString(th.Muted.Render(l) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(th.Header.Render("Games") + "\n")
	if len(c.History) == 0 {
		b.WriteString(th.Muted.Render("  None yet: press p to play the first game.") + "\n")
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
		b.WriteString(uikit.Trunc(fmt.Sprintf("  %s  %s  then %2d trials  %s  (%s)", h.When.Format("02 Jan 2006 15:04"), res, h.Trials,
			strings.Join(h.Players, ", "), h.Room), m.width) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}
