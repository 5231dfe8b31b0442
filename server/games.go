package server

import (
	"encoding/json"
	"fmt"
	"time"

	"bivouac/game"
	"bivouac/game/grizzled"
	"bivouac/game/grizzled/grizzbot"
	"bivouac/game/werewolf"
	"bivouac/game/werewolf/wolfbot"
	"bivouac/tui"
	"bivouac/tui/grizzledui"
	"bivouac/tui/uikit"
)

// Registry is the games this server offers, with their bots: the one list
// the lobby, restoring rooms, replays and campaigns look games up in.
func Registry() game.Registry {
	return game.Registry{
		{Game: grizzled.Game{}, Bots: grizzbot.Bots{}},
		{Game: werewolf.Game{}, Bots: wolfbot.Bots{}},
	}
}

// catalog is the registry as the lobby shows it: each game with its
// screen and its create-a-table form.
func catalog(reg game.Registry) tui.Catalog {
	var c tui.Catalog
	for _, e := range reg {
		switch e.Game.(type) {
		case grizzled.Game:
			c = append(c, grizzledEntry(e))
		case werewolf.Game:
			c = append(c, werewolfEntry(e))
		default:
			panic("server: no lobby entry for game " + e.Game.ID())
		}
	}
	return c
}

// grizzledEntry is The Grizzled as the lobby offers it.
func grizzledEntry(e game.Entry) tui.GameEntry {
	bots := e.Bots
	players := []string{"2 (with the chaplain)", "3", "4", "5"}
	variants := []grizzled.Variant{grizzled.Standard, grizzled.Beginner, grizzled.Veteran}
	variantNames := []string{"standard", "beginner (no traps)", "veteran (30 trials)"}
	botLevels := []string{"none"}
	if bots != nil {
		botLevels = append(botLevels, bots.Levels()...)
	}
	botCounts := []string{"0", "1", "2", "3", "4"}
	return tui.GameEntry{
		Entry:  e,
		Screen: func(th *uikit.Theme) uikit.Screen { return grizzledui.New(th) },
		Form: tui.Form{
			Fields: []tui.Field{
				{Label: "Players", Choices: players, Default: 2, Note: "Seats at the table, bots included. Two players play with the chaplain, a silent third soldier who places a support tile each mission."},
				{Label: "Rules", Choices: variantNames, Note: "Beginner ignores traps; veteran starts with 30 trials cards."},
				{Label: "Bots", Choices: botLevels, Default: min(1, len(botLevels)-1), Note: "Bots fill open seats when the host starts, and stand in for players who leave."},
				{Label: "Bot seats now", Choices: botCounts, Note: "How many seats bots take at once (the rest wait for friends)."},
				{Label: "Private", Choices: []string{"no", "yes"}, Note: "A private table is not listed: friends join it by its code."},
				{Label: "Turn clock", Choices: []string{"90 seconds", "3 minutes", "off"}, Note: "A player who takes longer over a decision has a bot make it for them that once; twice in a row, a bot plays for them until they act again. Everyone sees the clock."},
			},
			Build: func(c []int) (tui.TableSpec, error) {
				seats := c[0] + 2
				opts := grizzled.Options{Variant: variants[c[1]], Leader: game.NoSeat}
				b, err := json.Marshal(opts)
				if err != nil {
					return tui.TableSpec{}, err
				}
				spec := tui.TableSpec{Seats: seats, Options: b, Private: c[4] == 1, TurnClock: grizzledClocks[c[5]],
					Title: fmt.Sprintf("The Grizzled · %s · %d players", opts.Variant, seats)}
				if c[2] > 0 {
					spec.BotLevel = botLevels[c[2]]
					spec.Bots = c[3]
				} else if c[3] > 0 {
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

// grizzledClocks are the turn clocks a Grizzled table may choose.
var grizzledClocks = []time.Duration{90 * time.Second, 3 * time.Minute, 0}
