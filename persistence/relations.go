package persistence

import (
	"errors"
	"slices"
	"time"
)

// Relations are the other players a keyed player keeps near or away:
// their friends, the friend requests they made and were made, and those
// whose chat they ignore and those they block (who may not sit at tables
// they host, and whom no matching seats with them). Entries name players
// by identity (a key's fingerprint or a guest's ID), never by display
// name, which changes, so a rename keeps every list; the name is what the
// profile's list shows.
//
// A friendship is mutual: it holds while each lists the other in Friends
// (package friends keeps both sides and says what a half-made one means).
type Relations struct {
	Ignored []Relation `json:"ignored,omitempty"`
	Blocked []Relation `json:"blocked,omitempty"`
	Friends []Relation `json:"friends,omitempty"`
	// Asked are the players this one asked to be friends, waiting for an
	// answer; Askers those who asked this one (at most MaxAsked and
	// MaxAskers: package friends).
	Asked  []Relation `json:"asked,omitempty"`
	Askers []Relation `json:"askers,omitempty"`
}

// Relation is one player ignored or blocked.
type Relation struct {
	ID    string    `json:"id"`
	Name  string    `json:"name"` // as they were called when it was set
	Since time.Time `json:"since"`
}

// MaxRelations is the longest each list may grow: a profile is read at
// every login and join, and a list that grows without end (a script
// blocking every name it sees) would make every read slower.
const MaxRelations = 200

// ErrTooManyRelations: a list already holds MaxRelations players.
var ErrTooManyRelations = errors.New("persistence: too many players in the list")

// AddRelation puts rel in list, or renames the entry already there; a
// full list refuses a new player.
func AddRelation(list *[]Relation, rel Relation) error {
	if i := slices.IndexFunc(*list, func(r Relation) bool { return r.ID == rel.ID }); i >= 0 {
		(*list)[i].Name = rel.Name
		return nil
	}
	if len(*list) >= MaxRelations {
		return ErrTooManyRelations
	}
	*list = append(*list, rel)
	return nil
}

// RemoveRelation takes id out of list and reports whether it was there.
func RemoveRelation(list *[]Relation, id string) bool {
	n := len(*list)
	*list = slices.DeleteFunc(*list, func(r Relation) bool { return r.ID == id })
	return len(*list) != n
}

// HasRelation reports whether list names id.
func HasRelation(list []Relation, id string) bool {
	return slices.ContainsFunc(list, func(r Relation) bool { return r.ID == id })
}
