package grizzledui

import (
	"encoding/json"
	"strconv"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Module is The Grizzled as a server offers it: rules, bots, screen,
// form, guided mission, coach, campaigns and variant names.
func Module() uikit.Module {
	variants := []grizzled.Variant{grizzled.Standard, grizzled.Beginner, grizzled.Veteran}
	variantNames := []game.Msg{game.M("form.grizzled.standard"), game.M("form.grizzled.beginner"), game.M("form.grizzled.veteran")}
	const rules, clock, hints = 0, 1, 2 // the form's own fields, in Choices.Own
	return uikit.Module{
		Entry:    game.Entry{Game: grizzled.Game{}, Bots: grizzbot.Bots{}},
		TitleKey: "grizzled.title",
		Players:  uikit.Players{Min: 2, Max: 5, Default: 4, Label: playersLabel},
		Screen:   func(th *uikit.Theme) uikit.Screen { return New(th) },
		Form: uikit.Form{
			Fields: []uikit.Field{
				{Std: uikit.Seats, Note: "form.grizzled.players_note"},
				{Label: "form.grizzled.rules", Choices: variantNames, Note: "form.grizzled.rules_note"},
				{Std: uikit.BotLevel},
				{Std: uikit.BotSeats},
				{Std: uikit.Private},
				{Label: "form.pace", Choices: uikit.ClockChoices(), Note: "form.pace_note"},
				{Label: "form.hints", Choices: uikit.YesNo(), Note: "form.hints_note"},
			},
			Build: func(c uikit.Choices) (uikit.TableSpec, error) {
				opts := grizzled.Options{Variant: variants[c.Own[rules]], Leader: game.NoSeat}
				b, err := json.Marshal(opts)
				if err != nil {
					return uikit.TableSpec{}, err
				}
				title := "form.grizzled.table_title"
				if c.Own[hints] == 1 {
					title = "form.grizzled.table_title_hints" // everyone reads that h gives hints
				}
				pace := uikit.Clocks[c.Own[clock]]
				return uikit.TableSpec{GameOptions: b, Options: table.Options{TurnClock: pace.Turn, Pace: pace.Pace, Hints: c.Own[hints] == 1},
					Title: game.M(title, game.Term("Variant", "grizzled.variant."+string(opts.Variant)), game.Count(c.Seats))}, nil
			},
		},
		Learn:      learnSpec,
		Review:     Reviewer{Config: grizzbot.DefaultReview},
		Campaign:   grizzledCampaign{},
		Variant:    grizzledVariant,
		VariantKey: func(v string) string { return "grizzled.variant." + v },
		Sim:        grizzbot.Simulation{},
	}
}

// playersLabel names a count of players: two play with the chaplain.
func playersLabel(n int) game.Msg {
	if n == 2 {
		return game.M("form.grizzled.two_players")
	}
	return game.Raw(strconv.Itoa(n))
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
func learnSpec() uikit.TableSpec {
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Beginner, Leader: game.NoSeat}) // plain data: cannot fail
	return uikit.TableSpec{Seats: 3, GameOptions: opts, Title: game.M("learn.table_title"), Seed: learnSeed, Bots: 2,
		Options: table.Options{Private: true, BotLevel: grizzbot.LevelEasy}}
}
