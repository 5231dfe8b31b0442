package werewolf

import (
	"slices"
	"testing"

	"bivouac/game"
)

// The dead may not signal the living by coming and going (§11): that a
// dead player left or came back is for the dead; a living player's is for
// everyone, and once the game is over everyone hears everything.
func TestPresenceOfTheDeadIsForTheDead(t *testing.T) {
	s, _, err := NewState(namesN(8), DefaultOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Players[2].Alive, s.Players[5].Alive = false, false
	var g Game
	if a := g.PresenceAudience(s, 0); !a.All {
		t.Errorf("a living player's presence goes to %+v, want everyone", a)
	}
	a := g.PresenceAudience(s, 5)
	if a.All || !slices.Equal(a.Seats, []game.Seat{2, 5}) || a.Includes(game.Spectator) {
		t.Errorf("a dead player's presence goes to %+v, want seats 2 and 5 only", a)
	}
	s.Over = true
	if a := g.PresenceAudience(s, 5); !a.All {
		t.Errorf("after the game, presence goes to %+v, want everyone", a)
	}
}
