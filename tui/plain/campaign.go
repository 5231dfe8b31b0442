package plain

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// campaignSet runs "campaign set CODE bot LEVEL|hints on|off|clock
// 90s|3m|off": how the campaign's next missions are played, kept with it.
// With no option it says how they are played now.
func (p *plain) campaignSet(rec tui.Records, args []string) {
	th := p.th
	c, err := myCampaign(rec, p.s.Player.ID, args[0])
	if err != nil {
		p.say(th.Err(err))
		return
	}
	if len(args) == 1 {
		p.say(campaignOptionsLine(th, c))
		return
	}
	o, ok := parseCampaignOption(c, args[1:])
	if !ok {
		p.say(th.T("campaign.mission.plain_usage"))
		return
	}
	if c, err = rec.SetCampaignOptions(p.s.Player, c.Code, o); err != nil {
		p.say(th.Err(err))
		return
	}
	p.say(th.T("campaign.mission.kept"), campaignOptionsLine(th, c))
}

// parseCampaignOption is c's options with the one args name changed.
func parseCampaignOption(c tui.Campaign, args []string) (tui.CampaignOptions, bool) {
	o := c.Options
	if len(args) != 2 {
		return o, false
	}
	v := strings.ToLower(args[1])
	switch strings.ToLower(args[0]) {
	case "bot":
		for _, l := range c.BotLevels {
			if v == l {
				o.BotLevel = l
				return o, true
			}
		}
	case "hints":
		switch v {
		case "on", "yes":
			o.Hints = true
			return o, true
		case "off", "no":
			o.Hints = false
			return o, true
		}
	case "clock", "pace":
		if c, ok := uikit.ClockByWord(v); ok {
			return o.WithClock(c), true
		}
	}
	return o, false
}

// campaignOptionsLine says how c's missions are played, and which bot
// stands in for a missing member.
func campaignOptionsLine(th *uikit.Theme, c tui.Campaign) string {
	o := c.Options
	hints := "form.no"
	if o.Hints {
		hints = "form.yes"
	}
	return th.T("campaign.mission.options", game.Text("Name", c.Name), game.Text("Level", th.T("bot.level."+o.BotLevel)),
		game.Text("Hints", th.T(hints)), game.Text("Clock", th.T(o.Clock().Name)))
}
