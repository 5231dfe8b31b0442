package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
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
	option   int // the table option under the cursor (campaign_options.go)
}

// openCampaigns shows the player's campaigns (or, with open, that one).
func openCampaigns(m *root) *campaignsPage {
	rec, err := m.records()
	if err != nil {
		m.notice = m.th.Err(err)
		return nil
	}
	cs, err := rec.Campaigns(m.sess.Player.ID)
	if err != nil {
		m.notice = m.th.T("ui.err.read_campaigns", game.Text("Err", m.th.Err(err)))
		return nil
	}
	p := &campaignsPage{campaigns: cs, newPlayers: 2, bind: newPagesKeys(m.th)}
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
	p := &campaignPage{campaign: c, bind: newPagesKeys(m.th)}
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
		// The prompt starts with a name that will do, so enter alone
		// makes the campaign; the hint shows only once it is cleared.
		suggested := m.th.T("ui.campaign.default_name", game.Num("N", len(p.campaigns)+1))
		return m.openPrompt(m.th.T("ui.prompt.campaign_name"), m.th.T("ui.prompt.campaign_name_hint", game.Count(players)), suggested, 24,
			func(name string) tea.Cmd { return createCampaign(m, name, players) })
	case key.Matches(k, pk.Join):
		return m.openPrompt(m.th.T("ui.prompt.campaign_code"), m.th.T("ui.prompt.campaign_code_hint"), "", 12, func(code string) tea.Cmd { return joinCampaign(m, code) })
	case key.Matches(k, pk.Open) && p.cur < len(p.campaigns):
		return openCampaign(m, p.campaigns[p.cur])
	}
	return nil
}

func (p *campaignsPage) help(m *root) []key.Binding {
	open := p.bind.Open
	open.SetEnabled(len(p.campaigns) > 0)
	players := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", m.th.T("ui.key.players")))
	return []key.Binding{p.bind.Up, open, players, p.bind.New, p.bind.Join, p.bind.Back, m.keys.Help}
}

func (p *campaignsPage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *campaignsPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func createCampaign(m *root, name string, players int) tea.Cmd {
	rec, err := m.records()
	if err != nil {
		m.notice = m.th.Err(err)
		return nil
	}
	c, err := rec.CreateCampaign(m.sess.Player, name, players)
	if err != nil {
		m.notice = m.th.Err(err)
		return nil
	}
	cmd := openCampaign(m, c)
	m.notice = m.th.T("ui.campaign.created", game.Text("Code", c.Code))
	return cmd
}

func joinCampaign(m *root, code string) tea.Cmd {
	rec, err := m.records()
	if err != nil {
		m.notice = m.th.Err(err)
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
		m.notice = m.th.Err(err)
		return nil
	}
	cmd := openCampaign(m, c)
	m.notice = m.th.T("ui.campaign.joined", game.Text("Name", c.Name))
	return cmd
}

func (p *campaignPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	if ok, cmd := p.optionsKey(m, k); ok {
		return cmd
	}
	switch {
	case key.Matches(k, p.bind.Back):
		openCampaigns(m)
	case key.Matches(k, p.bind.Play):
		rec, err := m.records()
		if err != nil {
			m.notice = m.th.Err(err)
			return nil
		}
		g, spec, err := rec.CampaignTable(p.campaign)
		if err != nil {
			m.notice = m.th.Err(err)
			return nil
		}
		return m.createAndJoin(g, spec)
	}
	return nil
}

func (p *campaignPage) help(m *root) []key.Binding {
	ok := optionsKeysByLang.Get(m.th)
	return []key.Binding{p.bind.Play, ok.Up, ok.Change, p.bind.Back, m.keys.Help}
}

func (p *campaignPage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *campaignPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func (p *campaignsPage) view(m *root) string {
	th := m.th
	var b strings.Builder
	// The rules in brief follow the title where they fit, else under the
	// rule, wrapped: cut, the Polish line lost "weterana".
	title, about := th.T("ui.campaign.list_title"), th.T("ui.campaign.list_about")
	if lipgloss.Width(title+" · "+about) <= m.width {
		b.WriteString(th.Title.Render(title) + th.Muted.Render(" · "+about) + "\n")
		b.WriteString(m.rule() + "\n")
	} else {
		b.WriteString(th.Title.Render(title) + "\n" + m.rule() + "\n")
		b.WriteString(th.Muted.Render(ansi.Wordwrap(about, m.width, "")) + "\n")
	}
	if len(p.campaigns) == 0 {
		b.WriteString(th.Muted.Render("  "+th.T("ui.campaign.none")) + "\n")
	}
	for i, c := range p.campaigns {
		mark := "  "
		if i == p.cur {
			mark = "▸ "
		}
		b.WriteString(campaignLine(m, mark, c) + "\n")
	}
	b.WriteString("\n" + th.T("ui.campaign.new_for", game.Text("N", th.Accent.Render(fmt.Sprintf("◂ %d ▸", p.newPlayers)))) + "\n")
	b.WriteString(th.Muted.Render(th.T("ui.campaign.new_hint")) + "\n")
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// campaignLine is c's row in the list. The words (players, won and lost)
// keep their whole width in every language; the progress bar takes what
// is left of the window, between 4 and 14 cells (at 80 columns the Polish
// "wygrane 12 przegrane 13" was cut).
func campaignLine(m *root, mark string, c Campaign) string {
	th := m.th
	vet := ""
	if c.Veteran {
		vet = th.Good.Render(" ★")
	}
	head := mark + pad(th, c.Code, max(6, lipgloss.Width(c.Code))) + " " + pad(th, th.Text(c.Name), 20) + " " + pad(th, th.T("ui.n_players", game.Count(c.Players)), 11) + " "
	tail := fmt.Sprintf(" %2d/%d  ", c.Trials, c.Target) + th.T("ui.campaign.won_lost", game.Num("Won", c.Wins), game.Num("Lost", c.Losses)) + vet
	// The ★'s two cells are kept on every row, so the bars line up.
	barW := min(14, max(4, m.width-lipgloss.Width(head)-lipgloss.Width(tail)+lipgloss.Width(vet)-2))
	return th.Trunc(head+m.bar(c.Trials, c.Target, barW)+tail, m.width)
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
	b.WriteString(th.Title.Render(th.T("ui.campaign.title", game.Text("Name", c.Name))) + th.Muted.Render(" · "+th.T("ui.campaign.code", game.Text("Code", c.Code))) + "\n")
	b.WriteString(m.rule() + "\n")
	b.WriteString(th.T("ui.campaign.next_pile", game.Text("Bar", m.bar(c.Trials, c.Target, 30)), game.Num("N", c.Trials), game.Num("Of", c.Target)) + "\n")
	switch {
	case c.Veteran:
		b.WriteString(th.Good.Render("★ "+th.T("ui.campaign.won_at_30")) + "\n")
	case c.Trials >= c.Target:
		b.WriteString(th.Warning.Render(th.T("ui.campaign.win_for_veteran")) + "\n")
	}
	b.WriteString(th.Trunc(th.T("ui.n_players", game.Count(c.Players))+" · "+th.T("ui.campaign.won_lost", game.Num("Won", c.Wins), game.Num("Lost", c.Losses))+
		" · "+th.T("ui.campaign.members", game.Text("Names", strings.Join(c.Members, ", "))), m.width) + "\n")
	for _, l := range uikit.Wrap(th.T("ui.campaign.friends_join", game.Text("Code", c.Code)), m.width) {
		b.WriteString(th.Muted.Render(l) + "\n")
	}
	b.WriteString("\n")
	p.optionsView(m, &b)
	b.WriteString("\n")
	b.WriteString(th.Header.Render(th.T("ui.profile.games")) + "\n")
	if len(c.History) == 0 {
		b.WriteString(th.Muted.Render("  "+th.T("ui.campaign.no_games")) + "\n")
	}
	room := max(1, m.height-18)
	hist := c.History
	if len(hist) > room {
		hist = hist[len(hist)-room:]
	}
	resultW := max(uikit.Width(th.T("ui.won")), uikit.Width(th.T("ui.lost"))) // "wygrana" was cut at 6
	for _, h := range hist {
		res := th.Danger.Render(pad(th, th.T("ui.lost"), resultW))
		if h.Won {
			res = th.Good.Render(pad(th, th.T("ui.won"), resultW))
		}
		b.WriteString(th.Trunc("  "+h.When.Format(DateTimeLayout)+"  "+res+"  "+th.T("ui.campaign.then_trials", game.Num("N", h.Trials))+
			"  "+strings.Join(h.Players, ", ")+"  ("+h.Room+")", m.width) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}
