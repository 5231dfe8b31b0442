// Package pebblesui is Pebbles as a server offers it: the module the
// registry lists (rules, bots, form) and its table screen, full and plain.
package pebblesui

import (
	"encoding/json"
	"strconv"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/pebbles"
	_ "github.com/bivouac-ssh/bivouac/games/pebbles/catalog" // the game's words, registered with i18n
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Module is Pebbles as a server offers it: rules and bots, its screen,
// and a form whose one field of its own is the heap. It has none of the
// optional abilities (a coach, campaigns, its own simulation): `bivouac
// sim` plays its bots through the contract.
func Module() uikit.Module {
	var heaps []game.Msg
	for _, n := range pebbles.Heaps {
		heaps = append(heaps, game.Raw(strconv.Itoa(n)))
	}
	const heap = 0 // the form's own field, in Choices.Own
	return uikit.Module{
		Entry:    game.Entry{Game: pebbles.Game{}, Bots: pebbles.Bots{}},
		TitleKey: "pebbles.title",
		Players:  uikit.Players{Min: 2, Max: 4, Default: 2},
		Screen:   func(th *uikit.Theme) uikit.Screen { return New(th) },
		Form: uikit.Form{
			Fields: []uikit.Field{
				{Std: uikit.Seats, Note: "form.pebbles.players_note"},
				{Label: "form.pebbles.heap", Choices: heaps, Note: "form.pebbles.heap_note"},
				{Std: uikit.BotLevel},
				{Std: uikit.BotSeats},
				{Std: uikit.Private},
			},
			Build: func(c uikit.Choices) (uikit.TableSpec, error) {
				n := pebbles.Heaps[c.Own[heap]]
				opts, err := json.Marshal(pebbles.Options{Heap: n})
				return uikit.TableSpec{GameOptions: opts, Title: game.M("form.pebbles.table_title", game.Count(n))}, err
			},
		},
	}
}
