package tui

import (
	"slices"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// CampaignOptions are the table options of a campaign's missions, the
// ones a free table offers that fit a campaign (its seats and its rules
// are the campaign's): kept with the campaign, so the next mission opens
// as the members last chose.
type CampaignOptions struct {
	BotLevel  string        // the bot that plays the seats no member takes
	Hints     bool          // a seated player's h asks the bot for advice
	TurnClock time.Duration // a bot decides for a person this slow (0: none)
	// Pace: missions played live, or by correspondence, a deadline per
	// decision (uikit.Clocks).
	Pace table.Pace
}

// Clock is the options' clock among uikit.Clocks (the first when the
// options hold none of them).
func (o CampaignOptions) Clock() uikit.Clock {
	if c, ok := uikit.ClockOf(o.TurnClock, o.Pace); ok {
		return c
	}
	return uikit.Clocks[0]
}

// WithClock is o played with clock c.
func (o CampaignOptions) WithClock(c uikit.Clock) CampaignOptions {
	o.TurnClock, o.Pace = c.Turn, c.Pace
	return o
}

// The rows of the campaign page's options.
const (
	optBot = iota
	optClock
	optHints
	optRows
)

// optionsKeys move between the options and change one.
type optionsKeys struct{ Up, Down, Change key.Binding }

var optionsKeysByLang = uikit.PerLang[optionsKeys]{Make: func(th *uikit.Theme) optionsKeys {
	return optionsKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", th.T("ui.key.field"))),
		Down:   key.NewBinding(key.WithKeys("down", "j", "tab"), key.WithHelp("↓", th.T("ui.key.next_field"))),
		Change: key.NewBinding(key.WithKeys("left", "h", "right", "l", " "), key.WithHelp("←/→", th.T("ui.key.change"))),
	}
}}

// optionsKey moves the cursor or changes an option; it reports whether k
// was one of its keys, and returns the command that keeps the change.
func (p *campaignPage) optionsKey(m *root, k tea.KeyMsg) (bool, tea.Cmd) {
	ok := optionsKeysByLang.Get(m.th)
	switch {
	case key.Matches(k, ok.Up):
		p.option = (p.option + optRows - 1) % optRows
	case key.Matches(k, ok.Down):
		p.option = (p.option + 1) % optRows
	case key.Matches(k, ok.Change):
		step := 1
		if s := k.String(); s == "left" || s == "h" {
			step = -1
		}
		return true, p.changeOption(m, step)
	default:
		return false, nil
	}
	return true, nil
}

// changeOption steps the option under the cursor and keeps it, off the
// session's goroutine (a store write).
func (p *campaignPage) changeOption(m *root, step int) tea.Cmd {
	o := p.campaign.Options
	switch p.option {
	case optBot:
		levels := p.campaign.BotLevels
		if len(levels) == 0 {
			return nil
		}
		i := max(0, slices.Index(levels, o.BotLevel))
		o.BotLevel = levels[(i+step+len(levels))%len(levels)]
	case optClock:
		i := max(0, slices.IndexFunc(uikit.Clocks, func(c uikit.Clock) bool { return c == o.Clock() }))
		o = o.WithClock(uikit.Clocks[(i+step+len(uikit.Clocks))%len(uikit.Clocks)])
	case optHints:
		o.Hints = !o.Hints
	}
	p.campaign.Options = o
	rec, player, code := m.app.Records, m.sess.Player, p.campaign.Code
	if rec == nil {
		return nil
	}
	return func() tea.Msg {
		c, err := rec.SetCampaignOptions(player, code, o)
		return campaignOptionsKept{page: p, c: c, err: err}
	}
}

// campaignOptionsKept says how keeping a campaign's options went.
type campaignOptionsKept struct {
	page *campaignPage
	c    Campaign
	err  error
}

func (k campaignOptionsKept) apply(m *root) {
	if k.err != nil {
		m.notice = m.th.Err(k.err)
		return
	}
	k.page.campaign.Options = k.c.Options
	if m.page == page(k.page) {
		m.notice = m.th.T("campaign.mission.kept")
	}
}

// optionsView draws the campaign's table options and says which bot
// stands in for missing members.
func (p *campaignPage) optionsView(m *root, b *strings.Builder) {
	th, o := m.th, p.campaign.Options
	hints := "form.no"
	if o.Hints {
		hints = "form.yes"
	}
	rows := [optRows][2]string{
		optBot:   {th.T("form.bots"), th.T("bot.level." + o.BotLevel)},
		optClock: {th.T("form.pace"), th.T(o.Clock().Name)},
		optHints: {th.T("form.hints"), th.T(hints)},
	}
	for i, r := range rows {
		mark, v := "  ", r[1]
		if p.option == i {
			mark, v = "▸ ", th.Accent.Render("◂ "+v+" ▸")
		}
		b.WriteString(mark + pad(th, r[0], 18) + " " + v + "\n")
	}
	for _, l := range uikit.Wrap(th.T("campaign.mission.bot_stands_in", game.Text("Level", th.T("bot.level."+o.BotLevel))), m.width) {
		b.WriteString(th.Muted.Render(l) + "\n")
	}
}
