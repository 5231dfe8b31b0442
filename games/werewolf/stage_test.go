package werewolf

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// Stage says the night under way, then that night's day (game.Progress).
func TestStageNamesTheNightOrTheDay(t *testing.T) {
	var g game.Progress = Game{}
	for _, tc := range []struct {
		v    game.View
		key  string
		n    int
		what string
	}{
		{SeatView{}, "", 0, "before the first night"},
		{SeatView{Night: 1}, "werewolf.stage.night", 1, "the first night"},
		{SeatView{Night: 1, Day: 1}, "werewolf.stage.day", 1, "the first day"},
		{SeatView{Night: 3, Day: 2}, "werewolf.stage.night", 3, "the third night"},
		{"not a view", "", 0, "another game's view"},
	} {
		if key, n := g.Stage(tc.v); key != tc.key || n != tc.n {
			t.Errorf("%s: %q %d, want %q %d", tc.what, key, n, tc.key, tc.n)
		}
	}
	st, _, err := Game{}.New(game.Setup{Game: ID, Names: namesN(8), Options: ClassicOptions().Encode()}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if key, n := g.Stage(Game{}.View(st, game.Spectator)); key != "werewolf.stage.night" || n != 1 {
		t.Errorf("a new game reads %q %d to a spectator, want night 1", key, n)
	}
}
