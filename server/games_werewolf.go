package server

import (
	"fmt"
	"strings"
	"time"

	"bivouac/game"
	"bivouac/game/werewolf"
	"bivouac/tui"
	"bivouac/tui/uikit"
	"bivouac/tui/werewolfui"
)

// notRulebook marks the lobby choices the rulebook does not have (spec §3.4, §7).
const notRulebook = "[not in the rulebook]"

// werewolfPresets are the card sets the form offers (spec §3.2).
var werewolfPresets = []struct {
	name string
	opts func(n int) werewolf.Options
}{
	{"starter: werewolves, seer, villagers", func(int) werewolf.Options { return werewolf.DefaultOptions() }},
	{"starter + sheriff", func(n int) werewolf.Options {
		o := werewolf.DefaultOptions()
		o.Preset, o.Wolves, o.Seer, o.Sheriff = werewolf.PresetCustom, werewolf.TableWolves(n), true, true
		return o
	}},
	{"classic: every character + sheriff", func(int) werewolf.Options { return werewolf.ClassicOptions() }},
	{"classic without the thief", func(n int) werewolf.Options {
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

// werewolfEntry is The Werewolves of Millers Hollow as the lobby offers it,
// with the host options of the spec's §14 that a table needs at creation.
func werewolfEntry(e game.Entry) tui.GameEntry {
	bots := e.Bots
	var players []string
	for n := 5; n <= 18; n++ {
		if n < 8 {
			players = append(players, fmt.Sprintf("%d %s", n, notRulebook))
		} else {
			players = append(players, fmt.Sprint(n))
		}
	}
	var presets []string
	for _, p := range werewolfPresets {
		presets = append(presets, p.name)
	}
	timers := []string{"normal (rulebook pace)", "quick (shortest windows)",
		"quick, fast nights " + notRulebook}
	botLevels := []string{"none"}
	if bots != nil {
		botLevels = append(botLevels, bots.Levels()...)
	}
	var botCounts []string
	for n := 0; n <= 17; n++ {
		botCounts = append(botCounts, fmt.Sprint(n))
	}
	return tui.GameEntry{
		Entry:  e,
		Screen: func(th *uikit.Theme) uikit.Screen { return werewolfui.New(th) },
		Form: tui.Form{
			Fields: []tui.Field{
				{Label: "Players", Choices: players, Default: 3, Note: "Seats at the table, bots included. The rulebook plays with 8 to 18; 5 to 7 is a small table " + notRulebook + " whose results are unofficial."},
				{Label: "Cards", Choices: presets, Note: "Starter is the rulebook's first game. Classic adds the witch, hunter, cupid, little girl and thief (8+ players); the whole deck list is public."},
				{Label: "Timers", Choices: timers, Note: "Quick uses the shortest window of every phase. Fast nights " + notRulebook + " end a night step as soon as its players are done: the timing then reveals who is alive and which cards are in play."},
				{Label: "Bots", Choices: botLevels, Default: min(1, len(botLevels)-1), Note: "Bots fill open seats when the host starts, and stand in for players who leave."},
				{Label: "Bot seats now", Choices: botCounts, Note: "How many seats bots take at once (the rest wait for friends)."},
				{Label: "Private", Choices: []string{"no", "yes"}, Note: "A private table is not listed: friends join it by its code."},
				{Label: "Stand-ins", Choices: []string{"no", "yes"}, Note: "No (the rulebook's way): an absent player's seat waits for them. Yes: a bot plays for a player who lost the connection after 2 minutes. Either way, a game every player has left for 10 minutes ends with no winner."},
			},
			Build: func(c []int) (tui.TableSpec, error) {
				seats := c[0] + 5
				opts := werewolfPresets[c[1]].opts(seats)
				opts.SmallTable = seats < 8
				if c[2] > 0 {
					opts.Timers = quickTimers()
				}
				if c[2] == 2 {
					opts.NightTiming = werewolf.TimingFast
				}
				spec := tui.TableSpec{Seats: seats, Options: opts.Encode(), Private: c[5] == 1,
					NoTakeover: c[6] == 0, AbandonAfter: werewolfAbandonAfter}
				if err := opts.Validate(seats); err != nil {
					return spec, err
				}
				spec.Title = fmt.Sprintf("Werewolves · %s · %d players", presetWord(c[1]), seats)
				spec.Summary = deckSummary(opts, seats)
				if opts.SmallTable {
					spec.Title += " · not rulebook"
				}
				if c[2] == 2 {
					spec.Title += " · fast nights"
				}
				if c[3] > 0 {
					spec.BotLevel = botLevels[c[3]]
					spec.Bots = c[4]
				} else if c[4] > 0 {
					return spec, fmt.Errorf("choose a bot level to seat bots")
				}
				if spec.Bots >= seats {
					return spec, fmt.Errorf("leave at least one seat for a person (%d seats, %d bots)", seats, spec.Bots)
				}
				return spec, nil
			},
		},
	}
}

// werewolfAbandonAfter ends a game every human has left (spec §14).
const werewolfAbandonAfter = 10 * time.Minute

func presetWord(i int) string {
	return []string{"starter", "starter+sheriff", "classic", "classic, no thief"}[i]
}

// deckSummary is the deck a table's options make, as the form shows it:
// "Deck: 2 Werewolves, Seer, 5 Villagers".
func deckSummary(opts werewolf.Options, seats int) string {
	deck, err := opts.Deck(seats)
	if err != nil {
		return ""
	}
	var parts []string
	for i := 0; i < len(deck); {
		j := i
		for j < len(deck) && deck[j] == deck[i] {
			j++
		}
		if n := j - i; n > 1 {
			plural := deck[i].String() + "s"
			if deck[i] == werewolf.RoleWerewolf {
				plural = "Werewolves"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, plural))
		} else {
			parts = append(parts, deck[i].String())
		}
		i = j
	}
	out := "Deck: " + strings.Join(parts, ", ")
	if extra := len(deck) - seats; extra > 0 {
		out += fmt.Sprintf(" (%d of them lie in the middle for the thief)", extra)
	}
	return out
}
