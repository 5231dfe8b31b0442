package plain

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// The usage lines list the games the server offers, whatever they are:
// a second game in the catalog shows up in help, new and rules alike.
func TestUsageListsTheGamesOnOffer(t *testing.T) {
	a := testApp(t)
	second := a.Games[0]
	second.Entry = game.Entry{Game: dice{}}
	a.Games = append(a.Games, second)
	d := start(t, a, "fp-ann", "ann")
	d.do("help", "new GAME (asks each option; GAME is coin or dice)")
	d.do("new", "new GAME PLAYERS BOTS, GAME being coin or dice;")
	d.do("new chess", "GAME being coin or dice;")
	d.do("rules", "rules GAME (coin or dice)")
}

// dice is coin under another ID.
type dice struct{ coin }

func (dice) ID() string { return "dice" }
