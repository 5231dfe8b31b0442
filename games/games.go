// Package games is the games a server offers, each one tui.GameEntry
// bringing its rules, bots, screens and abilities: the one package that
// puts a game's packages together. Nothing else outside a game's own
// packages names a game.
package games

import (
	"strconv"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Catalog is the games on offer, in lobby order.
func Catalog() tui.Catalog {
	return tui.Catalog{Grizzled(), Werewolf()}
}

var errBotLevel = game.NewError("form.err.bot_level")

// numbers are the choices lo..hi.
func numbers(lo, hi int) []game.Msg {
	var out []game.Msg
	for n := lo; n <= hi; n++ {
		out = append(out, game.Raw(strconv.Itoa(n)))
	}
	return out
}

func yesNo() []game.Msg { return []game.Msg{game.M("form.no"), game.M("form.yes")} }

// botChoices names the bot levels ("none", "easy", "strong") for the form.
func botChoices(levels []string) []game.Msg {
	out := make([]game.Msg, len(levels))
	for i, l := range levels {
		out[i] = game.M("bot.level." + l)
	}
	return out
}
