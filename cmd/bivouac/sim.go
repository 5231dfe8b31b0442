package main

import (
	"context"
	"io"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game/sim/simcmd"
	"github.com/bivouac-ssh/bivouac/games"
)

// runSim is `bivouac sim`: bot-only games of any registered game, through
// its simulation ability.
func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var list []simcmd.Game
	for _, m := range games.Catalog() {
		if s := m.Simulator(); s != nil {
			list = append(list, simcmd.Game{ID: m.Game.ID(), Title: m.Game.Title(), Sim: s, Levels: m.Bots.Levels(),
				Min: m.Players.Min, Max: m.Players.Max, Default: m.Players.Default})
		}
	}
	return simcmd.Run(ctx, list, args, stdout, stderr, clock.System{})
}
