package server

import (
	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Catalog is the games a server offers unless its Config names others.
func Catalog() tui.Catalog { return games.Catalog() }

// variantOf names a finished game's variant for stats, as its game does.
func variantOf(catalog tui.Catalog) func(table.RoomRecord) string {
	return func(rec table.RoomRecord) string {
		if g, ok := catalog.Lookup(rec.Game); ok && g.Variant != nil {
			return g.Variant(rec.GameOptions)
		}
		return ""
	}
}
