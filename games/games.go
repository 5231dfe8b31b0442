// Package games is the registry: the games a server offers, in lobby
// order, one line a game. Each game is one folder, games/ID, whose module
// (games/ID/IDui) exports the value listed here; nothing else outside a
// game's folder names it.
package games

import (
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzledui"
	"github.com/bivouac-ssh/bivouac/games/pebbles/pebblesui"
	"github.com/bivouac-ssh/bivouac/games/werewolf/werewolfui"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Catalog is the games on offer, in lobby order.
func Catalog() tui.Catalog {
	return tui.Catalog{
		grizzledui.Module(),
		werewolfui.Module(),
		pebblesui.Module(),
	}
}
