package werewolfui

import (
	"strconv"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/games/werewolf/wolfbot"
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
	e := game.Entry{Game: werewolf.Game{}, Bots: wolfbot.Bots{}}
	bots := e.Bots
	var players []game.Msg
	for n := 5; n <= 18; n++ {
		if n < 8 {
			players = append(players, game.M("form.werewolf.small_n", game.Num("N", n)))
		} else {
			players = append(players, game.Raw(strconv.Itoa(n)))
		}
	}
	var presets []game.Msg
	for _, p := range werewolfPresets {
		presets = append(presets, game.M("form.werewolf.preset."+p.name))
	}
	timers := []game.Msg{game.M("form.werewolf.timers_normal"), game.M("form.werewolf.timers_quick"), game.M("form.werewolf.timers_fast")}
	botLevels := []string{"none"}
	if bots != nil {
		botLevels = append(botLevels, bots.Levels()...)
	}
	botCounts := uikit.Numbers(0, 17)
	return uikit.Module{
		Entry:    e,
		TitleKey: "werewolf.title",
		Screen:   func(th *uikit.Theme) uikit.Screen { return New(th) },
		Form: uikit.Form{
			Fields: []uikit.Field{
				{Label: "form.players", Choices: players, Default: 3, Note: "form.werewolf.players_note"},
				{Label: "form.werewolf.cards", Choices: presets, Note: "form.werewolf.cards_note"},
				{Label: "form.werewolf.timers", Choices: timers, Note: "form.werewolf.timers_note"},
				{Label: "form.bots", Choices: uikit.BotChoices(botLevels), Default: min(1, len(botLevels)-1), Note: "form.bots_note"},
				{Label: "form.bot_seats", Choices: botCounts, Note: "form.bot_seats_note"},
				{Label: "form.private", Choices: uikit.YesNo(), Note: "form.private_note"},
				{Label: "form.werewolf.standins", Choices: uikit.YesNo(), Note: "form.werewolf.standins_note"},
			},
			Build: func(c []int) (uikit.TableSpec, error) {
				seats := c[0] + 5
				opts := werewolfPresets[c[1]].opts(seats)
				opts.SmallTable = seats < 8
				if c[2] > 0 {
					opts.Timers = quickTimers()
				}
				if c[2] == 2 {
					opts.NightTiming = werewolf.TimingFast
				}
				spec := uikit.TableSpec{Seats: seats, Options: opts.Encode(), Private: c[5] == 1,
					NoTakeover: c[6] == 0, AbandonAfter: werewolfAbandonAfter}
				if err := opts.Validate(seats); err != nil {
					return spec, err
				}
				title := "form.werewolf.table_title"
				switch {
				case opts.SmallTable && c[2] == 2:
					title = "form.werewolf.table_title_small_fast"
				case opts.SmallTable:
					title = "form.werewolf.table_title_small"
				case c[2] == 2:
					title = "form.werewolf.table_title_fast"
				}
				spec.Title = game.M(title, game.Term("Preset", "form.werewolf.preset_short."+werewolfPresets[c[1]].name), game.Count(seats))
				spec.Summary = deckSummary(opts, seats)
				if c[3] > 0 {
					spec.BotLevel = botLevels[c[3]]
					spec.Bots = c[4]
				} else if c[4] > 0 {
					return spec, uikit.ErrBotLevel
				}
				if spec.Bots >= seats {
					return spec, game.Refuse(nil, game.M("form.err.one_person", game.Num("Seats", seats), game.Num("Bots", spec.Bots)))
				}
				return spec, nil
			},
		},
	}
}

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
