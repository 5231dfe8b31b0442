package table

import (
	"slices"

	"bivouac/game"
)

// The rules name players by their names at the table and know nothing of
// how each asked to be addressed; the room, which knows who sits where,
// adds it to every name an event carries, so that each viewer's language
// can make the sentence agree (i18n picks the wording by the Player
// argument's gender). Names at a table are distinct: the server gives
// each session a name no other session holds, and bots' names end in
// game.BotMark, which a player's cannot.

// genderOf is how the player named name at this table asked to be
// addressed: a seated player's choice, a bot's fixed gender, or unset.
func (r *Room) genderOf(name string) game.Gender {
	for i := range r.seats {
		rec := &r.seats[i].rec
		if rec.Name != name || name == "" {
			continue
		}
		if rec.Gender != game.GenderUnset {
			return rec.Gender
		}
		return botGender(name)
	}
	return game.GenderUnset
}

// addressed is m with every name it carries given that player's gender.
// m's own argument slices are the game's and left as they are: a changed
// message gets its own.
func (r *Room) addressed(m game.Msg) game.Msg {
	var args []game.Arg
	for i, a := range m.Args {
		b := a
		switch a.Kind {
		case game.ArgText:
			if a.Gender == game.GenderUnset {
				b.Gender = r.genderOf(a.Str)
			}
		case game.ArgMsg, game.ArgList:
			var msgs []game.Msg
			for j, sub := range a.Msgs {
				if s := r.addressed(sub); !s.Equal(sub) {
					if msgs == nil {
						msgs = slices.Clone(a.Msgs)
					}
					msgs[j] = s
				}
			}
			if msgs != nil {
				b.Msgs = msgs
			}
		}
		if b.Gender != a.Gender || (len(b.Msgs) > 0 && &b.Msgs[0] != &a.Msgs[0]) {
			if args == nil {
				args = slices.Clone(m.Args)
			}
			args[i] = b
		}
	}
	if args != nil {
		m.Args = args
	}
	return m
}
