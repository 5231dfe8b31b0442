package uikit

import "github.com/bivouac-ssh/bivouac/game"

// Muting is a screen that draws players' chat from somewhere other than
// the Update's log (the Werewolves pack channel, kept in the view): the
// session names the seats whose lines it must not draw, the players this
// session ignores (nil: none). Only chat lines go; nothing the rules make
// public (a vote, a death, the narrator) depends on it.
type Muting interface {
	Mute(seats []game.Seat)
}
