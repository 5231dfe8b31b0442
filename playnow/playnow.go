// Package playnow picks the table a player who asks to play a game now
// (`ssh host play grizzled`) sits down at: a public table of that game
// waiting for players with a seat free: the one a friend of theirs sits
// at first, then the one nearest to starting (fewest seats open, then
// most players waiting), then the longest waiting (the hub lists tables
// oldest first). With none, the caller opens a new table with the game's
// usual settings, where the next player who asks will sit.
//
// It reads only the lobby's list (table.Summary): what it picks is what
// the player could have picked from the lobby, and a private table, a
// campaign's, a guided mission or a game under way is never one.
package playnow

import "github.com/bivouac-ssh/bivouac/table"

// Pick is the code of the table me should sit at to play gameID now, from
// the lobby's rooms; friend reports whether a player is me's friend (nil:
// no friends). ok is false when no table fits. A table me already sits
// at, waiting, comes first: asking twice does not open a second.
func Pick(rooms []table.Summary, gameID, me string, friend func(id string) bool) (code string, ok bool) {
	best, bestScore := -1, score{}
	for i := range rooms {
		r := &rooms[i]
		if r.Game != gameID || r.Status != table.StatusWaiting || r.Private || r.Campaign != "" || r.Practice {
			continue
		}
		s := score{open: r.Open, seated: len(r.Players)}
		for _, id := range r.Players {
			switch {
			case id == me:
				s.mine = true
			case friend != nil && friend(id):
				s.friends++
			}
		}
		if r.Open == 0 && !s.mine {
			continue
		}
		if best < 0 || s.better(bestScore) {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return "", false
	}
	return rooms[best].Code, true
}

// score is how well a table fits.
type score struct {
	mine    bool // me sits there already
	friends int  // friends seated there
	open    int  // seats still open
	seated  int  // players seated
}

// better: a table of me's own, then more friends, then fewer open seats,
// then more players waiting; on a tie the earlier in the list (the older
// table) stays.
func (s score) better(than score) bool {
	if s.mine != than.mine {
		return s.mine
	}
	if s.friends != than.friends {
		return s.friends > than.friends
	}
	if s.open != than.open {
		return s.open < than.open
	}
	return s.seated > than.seated
}
