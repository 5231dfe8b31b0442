package people

import (
	"errors"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/friends"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Friends is the sessions' side of friendships (tui.Friends): package
// friends on the store.
type Friends struct {
	Service *friends.Service
	Store   persistence.Store
	Now     func() time.Time // nil: time.Now
	// Read, if set, reads a profile for a login's Circle instead of
	// Store: with a deadline, and the last copy past it (a login never
	// waits on a frozen node of a cluster).
	Read func(id string) (persistence.Profile, error)
	// Changes, if set, counts word that a player's circle changed (a
	// count shared by some players: more is only an extra read), and
	// Reload gives presence their circle as stored: a login whose read
	// such word overtook reads again once it is on presence.
	Changes func(id string) uint64
	Reload  func(id string)
}

func (f Friends) now() time.Time {
	if f.Now == nil {
		return time.Now()
	}
	return f.Now()
}

// Lists are p's friends, requests both ways, and the players p met at
// finished games who are none of those and whom p keeps away in no way.
func (f Friends) Lists(p table.Player) (tui.FriendLists, error) {
	if isGuest(p.ID) {
		return tui.FriendLists{}, nil
	}
	pr, err := f.Store.Player(p.ID)
	if errors.Is(err, persistence.ErrNotFound) {
		return tui.FriendLists{}, nil
	}
	if err != nil {
		return tui.FriendLists{}, err
	}
	l := friends.ListsOf(pr, f.now())
	out := tui.FriendLists{Friends: people(l.Friends), Asked: people(l.Asked), Askers: people(l.Askers), Seen: f.seen(l.Friends)}
	known := func(id string) bool {
		for _, rs := range [][]persistence.Relation{l.Friends, l.Asked, l.Askers, pr.Ignored, pr.Blocked} {
			if persistence.HasRelation(rs, id) {
				return true
			}
		}
		return false
	}
	for _, m := range pr.PlayedWith {
		if !known(m.ID) && !isGuest(m.ID) {
			out.Met = append(out.Met, tui.Person{ID: m.ID, Name: m.Name})
		}
	}
	return out, nil
}

// seen is when each friend was last seen, from their profiles (one read
// each, at most friends.MaxFriends; a friend whose profile does not come
// reads as just offline).
func (f Friends) seen(rs []persistence.Relation) map[string]time.Time {
	if len(rs) == 0 {
		return nil
	}
	out := make(map[string]time.Time, len(rs))
	for _, r := range rs {
		if pr, err := f.Store.Player(r.ID); err == nil && !pr.LastSeen.IsZero() {
			out[r.ID] = pr.LastSeen
		}
	}
	return out
}

// Ask has p ask other to be friends: what p is told. A p without a name
// (`ssh host friend NAME`) is named as their profile is.
func (f Friends) Ask(p table.Player, other tui.Person) (game.Msg, error) {
	if p.Name == "" {
		if pr, err := f.Store.Player(p.ID); err == nil {
			p.Name = pr.Name
		}
	}
	o, err := f.Service.Ask(friends.Person{ID: p.ID, Name: p.Name}, friends.Person(other))
	if err != nil {
		return game.Msg{}, err
	}
	key := map[friends.Outcome]string{
		friends.Asked:          "ui.friends.asked",
		friends.AlreadyAsked:   "ui.friends.already_asked",
		friends.Befriended:     "ui.friends.now_friends",
		friends.AlreadyFriends: "ui.friends.already",
	}[o]
	return game.M(key, game.Text("Player", other.Name)), nil
}

func (f Friends) Accept(p table.Player, other tui.Person) error {
	return f.Service.Accept(friends.Person{ID: p.ID, Name: p.Name}, friends.Person(other))
}

func (f Friends) Decline(p table.Player, other tui.Person) error {
	return f.Service.Decline(p.ID, other.ID)
}

func (f Friends) Remove(p table.Player, other tui.Person) error {
	return f.Service.Remove(p.ID, other.ID)
}

// Circle is what presence needs of player id: their friends, whom they
// keep away (ignored or blocked), and who sees where they are. A guest,
// or a player whose profile cannot be read, has none.
func (f Friends) Circle(id string) (presence.Circle, func()) {
	if isGuest(id) {
		return presence.Circle{}, nil
	}
	read := f.Store.Player
	if f.Read != nil {
		read = f.Read
	}
	var again func()
	if f.Changes != nil && f.Reload != nil {
		since := f.Changes(id)
		again = func() {
			if f.Changes(id) != since {
				f.Reload(id)
			}
		}
	}
	pr, err := read(id)
	if err != nil {
		return presence.Circle{}, again
	}
	return CircleOf(pr), again
}

// CircleOf is a profile's circle, for presence.
func CircleOf(pr persistence.Profile) presence.Circle {
	c := presence.Circle{Name: pr.Name}
	c.Shows, _ = presence.ParseVisibility(pr.Presence)
	for _, r := range pr.Friends {
		c.Friends = append(c.Friends, r.ID)
	}
	for _, rs := range [][]persistence.Relation{pr.Ignored, pr.Blocked} {
		for _, r := range rs {
			if !slices.Contains(c.Hidden, r.ID) {
				c.Hidden = append(c.Hidden, r.ID)
			}
		}
	}
	return c
}
