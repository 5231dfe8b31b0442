package table

import (
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
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
		if rec := &r.seats[i].rec; rec.Name == name && name != "" {
			return rec.gender()
		}
	}
	return game.GenderUnset
}

// gender is how the seat's player asked to be addressed, or its bot's.
func (rec *SeatRecord) gender() game.Gender {
	if rec.Gender != game.GenderUnset {
		return rec.Gender
	}
	return botGender(rec.Name)
}

// AddressSteps gives every name in a replay's events the gender its seat
// keeps (seats as the room saved them), as the live table did.
func AddressSteps(steps []Step, seats []SeatRecord) {
	of := func(name string) game.Gender {
		for i := range seats {
			if seats[i].Name == name && name != "" {
				return seats[i].gender()
			}
		}
		return game.GenderUnset
	}
	for i := range steps {
		for j := range steps[i].Events {
			steps[i].Events[j].Msg = addressed(steps[i].Events[j].Msg, of)
		}
	}
}

// addressed is m with every name it carries given that player's gender.
// m's own argument slices are the game's and left as they are: a changed
// message gets its own.
func (r *Room) addressed(m game.Msg) game.Msg { return addressed(m, r.genderOf) }

func addressed(m game.Msg, genderOf func(name string) game.Gender) game.Msg {
	var args []game.Arg
	for i, a := range m.Args {
		b := a
		switch a.Kind {
		case game.ArgText:
			if a.Gender == game.GenderUnset {
				b.Gender = genderOf(a.Str)
			}
		case game.ArgMsg, game.ArgList:
			var msgs []game.Msg
			for j, sub := range a.Msgs {
				if s := addressed(sub, genderOf); !s.Equal(sub) {
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
