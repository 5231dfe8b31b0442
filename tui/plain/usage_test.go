package plain

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
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

// Plain mode's help names `replay CODE N` (the moment a review line
// marks) in every language, as `ssh host help` does.
func TestPlainHelpNamesTheReplayAtADecision(t *testing.T) {
	d := start(t, testApp(t), "fp-ann", "ann")
	for _, lang := range i18n.Langs {
		d.do("lang "+string(lang), "")
		d.do("help", "replay "+i18n.For(lang).T("cmd.help.code")+" N ")
	}
}
