// Package people keeps whom players ignore and block, and takes their
// reports to the admins: the sessions' and tables' side of players
// keeping each other away (tui.Relations, tui.Reports, table.Blocks).
package people

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/friends"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Relations keeps whom players ignore and block (tui.Relations): a keyed
// player's lists in their profile, so every node of a cluster reads the
// same; a guest, who has no profile, keeps theirs in this node's memory
// until it restarts (and a reconnect with the same guest code finds them).
type Relations struct {
	store persistence.Store
	now   func() time.Time
	// Friends, if set, ends a friendship, and every request between the
	// two, when a keyed player blocks the other; Changed, if set, is told
	// the keyed players whose lists changed (presence hides whom they keep
	// away).
	Friends *friends.Service
	Changed func(ids ...string)

	mu     sync.Mutex
	guests map[string]*persistence.Relations
}

// maxGuestLists is how many guests' lists a node keeps: beyond it the
// oldest-made go first, so a flood of throwaway guests cannot fill memory.
const maxGuestLists = 10_000

var errListFull = game.Refuse(nil, game.M("ui.people.full", game.Num("N", persistence.MaxRelations)))

// NewRelations keeps keyed players' lists in store.
func NewRelations(store persistence.Store) *Relations {
	return &Relations{store: store, now: time.Now, guests: map[string]*persistence.Relations{}}
}

func isGuest(id string) bool { return strings.HasPrefix(id, "guest:") }

// Lists are p's lists as the screens need them.
func (r *Relations) Lists(p table.Player) (tui.PlayerLists, error) {
	rel, err := r.read(p.ID)
	if err != nil {
		return tui.PlayerLists{}, err
	}
	return tui.PlayerLists{Ignored: people(rel.Ignored), Blocked: people(rel.Blocked)}, nil
}

func people(rs []persistence.Relation) []tui.Person {
	out := make([]tui.Person, len(rs))
	for i, r := range rs {
		out[i] = tui.Person{ID: r.ID, Name: r.Name}
	}
	return out
}

// read is id's lists (none yet: empty).
func (r *Relations) read(id string) (persistence.Relations, error) {
	if isGuest(id) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if g := r.guests[id]; g != nil {
			return *g, nil
		}
		return persistence.Relations{}, nil
	}
	p, err := r.store.Player(id)
	if errors.Is(err, persistence.ErrNotFound) {
		return persistence.Relations{}, nil
	}
	return p.Relations, err
}

// Set puts other on p's list which (on) or takes them off it.
func (r *Relations) Set(p table.Player, which tui.RelationList, other tui.Person, on bool) error {
	change := func(rel *persistence.Relations) error {
		list := &rel.Ignored
		if which == tui.BlockList {
			list = &rel.Blocked
		}
		if !on {
			persistence.RemoveRelation(list, other.ID)
			return nil
		}
		err := persistence.AddRelation(list, persistence.Relation{ID: other.ID, Name: other.Name, Since: r.now()})
		if errors.Is(err, persistence.ErrTooManyRelations) {
			return errListFull
		}
		return err
	}
	if !isGuest(p.ID) {
		if _, err := r.store.UpdatePlayer(p.ID, func(pr *persistence.Profile) error { return change(&pr.Relations) }); err != nil {
			return err
		}
		if which == tui.BlockList && on && r.Friends != nil {
			if err := r.Friends.Block(p.ID, other.ID); err != nil {
				return err
			}
		}
		if r.Changed != nil {
			r.Changed(p.ID, other.ID)
		}
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.guests[p.ID]
	if g == nil {
		for id := range r.guests { // full: one goes (any: the map keeps no order, and none is worth more)
			if len(r.guests) < maxGuestLists {
				break
			}
			delete(r.guests, id)
		}
		g = &persistence.Relations{}
		r.guests[p.ID] = g
	}
	next := persistence.Relations{Ignored: append([]persistence.Relation(nil), g.Ignored...), Blocked: append([]persistence.Relation(nil), g.Blocked...)}
	if err := change(&next); err != nil {
		return err
	}
	*g = next
	return nil
}

// Blocks reports whether a has blocked b (table.Blocks): asked at each
// join of a table a hosts, and by matching.
func (r *Relations) Blocks(a, b string) bool {
	rel, err := r.read(a)
	return err == nil && persistence.HasRelation(rel.Blocked, b)
}

// Reports files players' reports in the admins' queue (tui.Reports),
// through the moderation service's checks.
type Reports struct {
	Mod *moderation.Service
	// AddressGroup is how reporters' addresses are counted together
	// (sshserver.AddressGroup: an IPv4 address, an IPv6 /64).
	AddressGroup func(addr string) string
}

// File puts rep in the queue, or refuses it in words.
func (r Reports) File(rep tui.Report) error {
	_, err := r.Mod.FileReport(moderation.Report{Reporter: rep.From, ReporterName: rep.FromName, Subject: rep.About,
		SubjectName: rep.AboutName, Table: rep.Table, Reason: rep.Reason, Evidence: rep.Evidence},
		r.AddressGroup(rep.FromAddr))
	return err
}

// Ignores is, for text told to the player id (a replay's story), whether a
// chat line said from seat is one they ignore (rel nil: none is).
func Ignores(rel tui.Relations, id string) func(seats []table.SeatInfo, from game.Seat) bool {
	var lists tui.PlayerLists
	if rel != nil && id != "" {
		lists, _ = rel.Lists(table.Player{ID: id, Guest: isGuest(id)})
	}
	return func(seats []table.SeatInfo, from game.Seat) bool {
		if from < 0 || int(from) >= len(seats) || seats[from].ID == "" {
			return false
		}
		return slices.ContainsFunc(lists.Ignored, func(p tui.Person) bool { return p.ID == seats[from].ID })
	}
}
