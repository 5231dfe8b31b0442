package werewolfui

import (
	"strconv"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/games/werewolf/wolfbot"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// werewolfPresets are the card sets the form offers (spec §3.2); name is
// the catalog key of "form.werewolf.preset.<name>" and of the table title.
var werewolfPresets = []struct {
	name string
	opts func(n int) werewolf.Options
}{
	{"starter", func(int) werewolf.Options { return werewolf.DefaultOptions() }},
	{"starter_sheriff", func(n int) werewolf.Options {
		o := werewolf.DefaultOptions()
		o.Preset, o.Wolves, o.Seer, o.Sheriff = werewolf.PresetCustom, werewolf.TableWolves(n), true, true
		return o
	}},
	{"classic", func(int) werewolf.Options { return werewolf.ClassicOptions() }},
	{"classic_no_thief", func(n int) werewolf.Options {
		o := werewolf.DefaultOptions()
		o.Preset, o.Wolves, o.Sheriff = werewolf.PresetCustom, werewolf.TableWolves(n), true
		o.Seer, o.Witch, o.Hunter, o.Cupid, o.LittleGirl = true, true, true, true, true
		return o
	}},
}

// quickTimers are the shortest windows the spec allows for every phase (§7).
func quickTimers() werewolf.Timers {
	return werewolf.Timers{NightFall: 3, Thief: 15, Cupid: 15, Lovers: 5, Seer: 15, Wolves: 30, Witch: 15,
		Dawn: 5, HunterShot: 15, Succession: 15, SheriffCampaign: 30, SheriffVote: 15, SheriffRunoff: 10,
		Discussion: 30, Vote: 15, Tiebreak: 10, Verdict: 3}
}

// Module is The Werewolves of Millers Hollow as a server offers it,
// with the host options of the spec's §14 that a table needs at creation.
func Module() uikit.Module {
	var presets []game.Msg
	for _, p := range werewolfPresets {
		presets = append(presets, game.M("form.werewolf.preset."+p.name))
	}
	timers := []game.Msg{game.M("form.werewolf.timers_normal"), game.M("form.werewolf.timers_quick"), game.M("form.werewolf.timers_fast")}
	for _, p := range werewolfPaces {
		timers = append(timers, game.M("form.werewolf.timers_corr", game.Num("Day", p.day), game.Num("Night", p.night)))
	}
	const cards, timing, standIns = 0, 1, 2 // the form's own fields, in Choices.Own
	return uikit.Module{
		Entry:    game.Entry{Game: werewolf.Game{}, Bots: wolfbot.Bots{}},
		TitleKey: "werewolf.title",
		Sim:      wolfbot.Simulation{},
		Players:  uikit.Players{Min: 5, Max: 18, Default: 8, Label: playersLabel},
		Screen:   func(th *uikit.Theme) uikit.Screen { return New(th) },
		Form: uikit.Form{
			Fields: []uikit.Field{
				{Std: uikit.Seats, Note: "form.werewolf.players_note"},
				{Label: "form.werewolf.cards", Choices: presets, Note: "form.werewolf.cards_note"},
				{Label: "form.werewolf.timers", Choices: timers, Note: "form.werewolf.timers_note"},
				{Std: uikit.BotLevel},
				{Std: uikit.BotSeats},
				{Std: uikit.Private},
				{Label: "form.werewolf.standins", Choices: uikit.YesNo(), Note: "form.werewolf.standins_note"},
			},
			Build: func(c uikit.Choices) (uikit.TableSpec, error) {
				seats := c.Seats
				opts := werewolfPresets[c.Own[cards]].opts(seats)
				opts.SmallTable = seats < 8
				if c.Own[timing] > 0 {
					opts.Timers = quickTimers()
				}
				if c.Own[timing] == 2 {
					opts.NightTiming = werewolf.TimingFast
				}
				var pace table.Pace
				if i := c.Own[timing] - 3; i >= 0 && i < len(werewolfPaces) {
					opts.Timers = werewolf.Timers{} // the informing steps keep the rulebook's pace
					opts.DayHours, opts.NightHours = werewolfPaces[i].day, werewolfPaces[i].night
					pace.Correspondence = true
				}
				spec := uikit.TableSpec{GameOptions: opts.Encode(),
					Options: table.Options{NoTakeover: c.Own[standIns] == 0, AbandonAfter: werewolfAbandonAfter, Pace: pace}}
				if err := opts.Validate(seats); err != nil {
					return spec, err
				}
				title := "form.werewolf.table_title"
				switch {
				case opts.SmallTable && c.Own[timing] == 2:
					title = "form.werewolf.table_title_small_fast"
				case opts.SmallTable:
					title = "form.werewolf.table_title_small"
				case c.Own[timing] == 2:
					title = "form.werewolf.table_title_fast"
				}
				spec.Title = game.M(title, game.Term("Preset", "form.werewolf.preset_short."+werewolfPresets[c.Own[cards]].name), game.Count(seats))
				spec.Summary = deckSummary(opts, seats)
				return spec, nil
			},
		},
	}
}

// playersLabel names a count of players: fewer than eight is the small
// table, outside the rulebook.
func playersLabel(n int) game.Msg {
	if n < 8 {
		return game.M("form.werewolf.small_n", game.Num("N", n))
	}
	return game.Raw(strconv.Itoa(n))
}

// werewolfPaces are the days and nights, in hours, a table played by
// correspondence may have: a day's decisions (discussion, vote) over a
// working day, an evening or a whole day; the night's steps shorter, since
// only a few roles act in them.
var werewolfPaces = []struct{ day, night int }{{4, 2}, {12, 6}, {24, 12}}

// werewolfAbandonAfter ends a game every human has left (spec §14).
const werewolfAbandonAfter = 10 * time.Minute

// deckSummary is the deck a table's options make, as the form shows it:
// "Deck: Werewolf ×2, Seer, Villager ×5".
func deckSummary(opts werewolf.Options, seats int) game.Msg {
	deck, err := opts.Deck(seats)
	if err != nil {
		return game.Msg{}
	}
	parts := werewolf.DeckMsgs(deck)
	if extra := len(deck) - seats; extra > 0 {
		return game.M("form.werewolf.deck_middle", game.Joined("Deck", ", ", parts...), game.Count(extra))
	}
	return game.M("form.werewolf.deck", game.Joined("Deck", ", ", parts...))
}
