package pebbles

import (
	"encoding/json"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
)

// TestConformance runs the suite every game passes (game/gametest).
func TestConformance(t *testing.T) {
	var setups []game.Setup
	names := []string{"Ada", "Bo", "Cyd", "Dee"}
	for i, heap := range Heaps {
		opts, _ := json.Marshal(Options{Heap: heap})
		setups = append(setups, game.Setup{Game: ID, Names: names[:2+i], Options: opts})
	}
	gametest.Run(t, gametest.Config{Game: Game{}, Setups: setups,
		Snapshot: func(s game.State) ([]byte, error) { return json.Marshal(s) }})
}
