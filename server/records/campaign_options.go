package records

import (
	"errors"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// campaignOptions are the table options campaign c's missions are played
// with (the first bot level, no hints and the form's first turn clock
// until its members choose), and the bot levels it may choose from.
func (r *Records) campaignOptions(c persistence.Campaign) (tui.CampaignOptions, []string) {
	var levels []string
	if g, ok := r.games.Campaigns(); ok && g.Bots != nil {
		levels = g.Bots.Levels()
	}
	o := tui.CampaignOptions{}.WithClock(uikit.Clocks[0])
	if len(levels) > 0 {
		o.BotLevel = levels[0]
	}
	if t := c.Table; t != nil {
		if slices.Contains(levels, t.BotLevel) {
			o.BotLevel = t.BotLevel
		}
		if c, ok := uikit.ClockOf(t.TurnClock, t.Pace); ok {
			o = o.WithClock(c)
		}
		o.Hints = t.Hints
	}
	return o, levels
}

var errCampaignClock = game.NewError("campaign.mission.err_clock")

// SetCampaignOptions keeps how campaign code's next missions are played,
// as its member p chose. A level or a clock the server does not offer
// is refused and changes nothing; a mission under way keeps its own.
func (r *Records) SetCampaignOptions(p table.Player, code string, o tui.CampaignOptions) (tui.Campaign, error) {
	if p.Guest {
		return tui.Campaign{}, errGuestJoin
	}
	c, err := r.store.UpdateCampaign(table.NormalizeCode(code), func(c *persistence.Campaign) error {
		if !slices.Contains(c.Members, p.ID) {
			return game.Refuse(tui.ErrNoSuchCampaign, game.M("campaign.err.no_such", game.Text("Code", c.ID)))
		}
		if _, levels := r.campaignOptions(*c); !slices.Contains(levels, o.BotLevel) {
			return game.Refuse(nil, game.M("campaign.mission.err_bot", game.Text("Level", o.BotLevel)))
		}
		if _, ok := uikit.ClockOf(o.TurnClock, o.Pace); !ok {
			return errCampaignClock
		}
		c.Table = &persistence.CampaignTable{BotLevel: o.BotLevel, Hints: o.Hints, TurnClock: o.TurnClock, Pace: o.Pace}
		return nil
	})
	if errors.Is(err, persistence.ErrNotFound) {
		return tui.Campaign{}, game.Refuse(tui.ErrNoSuchCampaign, game.M("campaign.err.no_such", game.Text("Code", code)))
	}
	if err != nil {
		return tui.Campaign{}, err
	}
	return r.campaign(c), nil
}
