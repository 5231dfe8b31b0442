package grizzledui

import (
	"encoding/json"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Module is The Grizzled as a server offers it: rules, bots, screen,
// form, guided mission, coach, campaigns and variant names.
func Module() uikit.Module {
	e := game.Entry{Game: grizzled.Game{}, Bots: grizzbot.Bots{}}
	bots := e.Bots
	players := []game.Msg{game.M("form.grizzled.two_players"), game.Raw("3"), game.Raw("4"), game.Raw("5")}
	variants := []grizzled.Variant{grizzled.Standard, grizzled.Beginner, grizzled.Veteran}
	variantNames := []game.Msg{game.M("form.grizzled.standard"), game.M("form.grizzled.beginner"), game.M("form.grizzled.veteran")}
	botLevels := []string{"none"}
	if bots != nil {
		botLevels = append(botLevels, bots.Levels()...)
	}
	botCounts := uikit.Numbers(0, 4)
	return uikit.Module{
		Entry:    e,
		TitleKey: "grizzled.title",
		Screen:   func(th *uikit.Theme) uikit.Screen { return New(th) },
		Form: uikit.Form{
			Fields: []uikit.Field{
				{Label: "form.players", Choices: players, Default: 2, Note: "form.grizzled.players_note"},
				{Label: "form.grizzled.rules", Choices: variantNames, Note: "form.grizzled.rules_note"},
				{Label: "form.bots", Choices: uikit.BotChoices(botLevels), Default: min(1, len(botLevels)-1), Note: "form.bots_note"},
				{Label: "form.bot_seats", Choices: botCounts, Note: "form.bot_seats_note"},
				{Label: "form.private", Choices: uikit.YesNo(), Note: "form.private_note"},
				{Label: "form.clock", Choices: []game.Msg{game.M("form.clock_90s"), game.M("form.clock_3m"), game.M("form.off")}, Note: "form.clock_note"},
				{Label: "form.hints", Choices: uikit.YesNo(), Note: "form.hints_note"},
			},
			Build: func(c []int) (uikit.TableSpec, error) {
				seats := c[0] + 2
				opts := grizzled.Options{Variant: variants[c[1]], Leader: game.NoSeat}
				b, err := json.Marshal(opts)
				if err != nil {
					return uikit.TableSpec{}, err
				}
				title := "form.grizzled.table_title"
				if c[6] == 1 {
					title = "form.grizzled.table_title_hints" // everyone reads that h gives hints
				}
				spec := uikit.TableSpec{Seats: seats, Options: b, Private: c[4] == 1, TurnClock: grizzledClocks[c[5]], Hints: c[6] == 1,
					Title: game.M(title, game.Term("Variant", "grizzled.variant."+string(opts.Variant)), game.Count(seats))}
				if c[2] > 0 {
					spec.BotLevel = botLevels[c[2]]
					spec.Bots = c[3]
				} else if c[3] > 0 {
					return spec, uikit.ErrBotLevel
				}
				if spec.Bots >= seats {
					return spec, game.Refuse(nil, game.M("form.err.one_person", game.Num("Seats", seats), game.Num("Bots", spec.Bots)))
				}
				return spec, nil
			},
		},
		Learn:      func() uikit.TableSpec { return learnSpec(botLevels) },
		Review:     Reviewer{Config: grizzbot.DefaultReview},
		Campaign:   grizzledCampaign{},
		Variant:    grizzledVariant,
		VariantKey: func(v string) string { return "grizzled.variant." + v },
	}
}

// grizzledVariant names a finished Grizzled game's variant for stats: a
// campaign mission counts as "campaign", whatever its rules.
func grizzledVariant(options []byte) string {
	var o grizzled.Options
	if json.Unmarshal(options, &o) != nil {
		return ""
	}
	if o.StartingTrials > 0 {
		return "campaign"
	}
	return string(o.Variant)
}

// grizzledCampaign is The Grizzled's campaign (rules §6.5) as
// uikit.CampaignRules: missions with the standard rules, each starting with
// the trials the last one left.
type grizzledCampaign struct{}

func (grizzledCampaign) Start(players int) int { return grizzled.CampaignStart(players) }
func (grizzledCampaign) Max() int              { return grizzled.CampaignMax }
func (grizzledCampaign) Next(trials int, r game.Result) (next int, won, veteran bool) {
	won = r.Outcome == "win"
	next, veteran = grizzled.CampaignNext(trials, won)
	return next, won, veteran
}
func (grizzledCampaign) Options(trials int) ([]byte, error) {
	return json.Marshal(grizzled.Options{Variant: grizzled.Standard, StartingTrials: trials, Leader: game.NoSeat})
}
func (grizzledCampaign) Trials(options []byte) (int, error) {
	var o grizzled.Options
	err := json.Unmarshal(options, &o)
	return o.StartingTrials, err
}

// learnSeed deals the guided first mission: a three-soldier deal whose
// first mission brings two of a threat into No Man's Land, withdrawals,
// support and the morale drop, with the newcomer leading.
const learnSeed = 1

// learnSpec is the guided first mission's table: the newcomer and two
// easy bots, the beginner rules (no traps yet), private, no turn clock.
func learnSpec(botLevels []string) uikit.TableSpec {
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Beginner, Leader: game.NoSeat}) // plain data: cannot fail
	spec := uikit.TableSpec{Seats: 3, Options: opts, Title: game.M("learn.table_title"), Private: true, Seed: learnSeed}
	if len(botLevels) > 1 {
		spec.BotLevel, spec.Bots = botLevels[1], 2
	}
	return spec
}

// grizzledClocks are the turn clocks a Grizzled table may choose.
var grizzledClocks = []time.Duration{90 * time.Second, 3 * time.Minute, 0}
