package grizzled

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// Stage says the mission under way (game.Progress), to a spectator too.
func TestStageNamesTheMission(t *testing.T) {
	var g game.Progress = Game{}
	st, _, err := Game{}.New(game.Setup{Game: "grizzled", Names: []string{"Anna", "Ben", "Chloé"}}, 42)
	if err != nil {
		t.Fatal(err)
	}
	if key, n := g.Stage(Game{}.View(st, game.Spectator)); key != "grizzled.stage.mission" || n != 1 {
		t.Errorf("a new game reads %q %d, want mission 1", key, n)
	}
	if key, n := g.Stage(SeatView{Round: 4}); key != "grizzled.stage.mission" || n != 4 {
		t.Errorf("round 4 reads %q %d", key, n)
	}
	if key, _ := g.Stage(SeatView{}); key != "" {
		t.Errorf("no round reads %q", key)
	}
}
