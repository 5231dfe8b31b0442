package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// testRelationsRoundTrip: the players a profile ignores and blocks are
// kept by identity, read back as stored, taken out again, and a list stops
// at MaxRelations.
func testRelationsRoundTrip(t *testing.T, open Opener) {
	s := open(t, tickClock())
	const fp = "SHA256:ann"
	since := time.Date(2026, 11, 27, 21, 0, 0, 0, time.UTC)
	_, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error {
		p.Name = "Ann"
		if err := persistence.AddRelation(&p.Ignored, persistence.Relation{ID: "SHA256:troll", Name: "Troll", Since: since}); err != nil {
			return err
		}
		return persistence.AddRelation(&p.Blocked, persistence.Relation{ID: "guest:0123abcd", Name: "Gość", Since: since})
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Player(fp)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ignored) != 1 || got.Ignored[0] != (persistence.Relation{ID: "SHA256:troll", Name: "Troll", Since: since}) {
		t.Fatalf("ignored read back as %+v", got.Ignored)
	}
	if !persistence.HasRelation(got.Blocked, "guest:0123abcd") || persistence.HasRelation(got.Blocked, "SHA256:troll") {
		t.Fatalf("blocked read back as %+v", got.Blocked)
	}
	// Renamed, not doubled; then taken out.
	_, err = s.UpdatePlayer(fp, func(p *persistence.Profile) error {
		if err := persistence.AddRelation(&p.Ignored, persistence.Relation{ID: "SHA256:troll", Name: "Troll2"}); err != nil {
			return err
		}
		if !persistence.RemoveRelation(&p.Blocked, "guest:0123abcd") {
			return errors.New("blocked entry not found")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Player(fp); len(got.Ignored) != 1 || got.Ignored[0].Name != "Troll2" || len(got.Blocked) != 0 || got.Name != "Ann" {
		t.Fatalf("after the change: %+v", got)
	}
	// A full list refuses one more, and the refused update stores nothing.
	_, err = s.UpdatePlayer(fp, func(p *persistence.Profile) error {
		for i := len(p.Ignored); i <= persistence.MaxRelations; i++ {
			if err := persistence.AddRelation(&p.Ignored, persistence.Relation{ID: fmt.Sprintf("SHA256:p%d", i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, persistence.ErrTooManyRelations) {
		t.Fatalf("overfull list: %v", err)
	}
	if got, _ := s.Player(fp); len(got.Ignored) != 1 {
		t.Fatalf("a refused update was stored: %d ignored", len(got.Ignored))
	}
}

// testFriendsKeptByIdentity: friends, the requests a player made and was
// made, and who sees their presence are kept by identity in the profile:
// a rename of either player keeps every entry, and an entry's name is the
// one it was stored with until it is written again.
func testFriendsKeptByIdentity(t *testing.T, open Opener) {
	s := open(t, tickClock())
	since := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	_, err := s.UpdatePlayer("SHA256:anna", func(p *persistence.Profile) error {
		p.Name, p.Presence = "anna", "everyone"
		p.Friends = []persistence.Relation{{ID: "SHA256:bob", Name: "bob", Since: since}}
		p.Asked = []persistence.Relation{{ID: "SHA256:carol", Name: "carol", Since: since}}
		p.Askers = []persistence.Relation{{ID: "SHA256:dmitri", Name: "Дмитрий", Since: since}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// anna renames herself; bob, renamed, stays her friend.
	if _, err := s.UpdatePlayer("SHA256:anna", func(p *persistence.Profile) error { p.Name = "Anna K."; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdatePlayer("SHA256:bob", func(p *persistence.Profile) error { p.Name = "Robert"; return nil }); err != nil {
		t.Fatal(err)
	}
	got, err := s.Player("SHA256:anna")
	if err != nil {
		t.Fatal(err)
	}
	want := persistence.Relations{
		Friends: []persistence.Relation{{ID: "SHA256:bob", Name: "bob", Since: since}},
		Asked:   []persistence.Relation{{ID: "SHA256:carol", Name: "carol", Since: since}},
		Askers:  []persistence.Relation{{ID: "SHA256:dmitri", Name: "Дмитрий", Since: since}},
	}
	if got.Name != "Anna K." || got.Presence != "everyone" || !reflect.DeepEqual(got.Relations, want) {
		t.Fatalf("anna after the renames: %q %q %+v", got.Name, got.Presence, got.Relations)
	}
}

// testPlayedWithAtFinish: a finished game puts its other keyed players
// (not guests, not bots) at the front of each keyed player's PlayedWith,
// once each, with the game and when it finished; at most MaxPlayedWith
// are kept, the oldest going first.
func testPlayedWithAtFinish(t *testing.T, open Opener) {
	s := open(t, tickClock())
	room := func(id string, others ...string) persistence.RoomRecord {
		r := testRoom(id)
		r.Seats = []persistence.SeatRecord{{Seat: 0, Identity: "SHA256:ann", Name: "ann"}}
		for i, o := range others {
			r.Seats = append(r.Seats, persistence.SeatRecord{Seat: game.Seat(i + 1), Identity: "SHA256:" + o, Name: o})
		}
		r.Seats = append(r.Seats, persistence.SeatRecord{Seat: game.Seat(len(others) + 1), Identity: "guest:g1", Name: "guest", Guest: true},
			persistence.SeatRecord{Seat: game.Seat(len(others) + 2), Name: "bot", Bot: "easy"})
		return mustPutRoom(t, s, finished(r))
	}
	first := room("m1", "bob", "carol")
	second := room("m2", "dan", "bob")
	ann, err := s.Player("SHA256:ann")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ann.PlayedWith {
		got = append(got, m.ID)
	}
	if !slices.Equal(got, []string{"SHA256:dan", "SHA256:bob", "SHA256:carol"}) {
		t.Fatalf("ann met %v; want dan, bob (the latest game first, once), carol", got)
	}
	if m := ann.PlayedWith[1]; m.Game != "grizzled" || !m.When.Equal(second.Finished) || m.Name != "bob" {
		t.Fatalf("ann's entry for bob %+v; want the second game's", m)
	}
	if c := ann.PlayedWith[2]; !c.When.Equal(first.Finished) {
		t.Fatalf("carol's entry %+v; want the first game's finish %v", c, first.Finished)
	}
	if bob, _ := s.Player("SHA256:bob"); len(bob.PlayedWith) != 3 || bob.PlayedWith[0].ID != "SHA256:ann" {
		t.Fatalf("bob met %+v", bob.PlayedWith)
	}
	for i := range persistence.MaxPlayedWith {
		room(fmt.Sprintf("x%d", i), fmt.Sprintf("p%d", i))
	}
	ann, _ = s.Player("SHA256:ann")
	if len(ann.PlayedWith) != persistence.MaxPlayedWith || ann.PlayedWith[0].ID != fmt.Sprintf("SHA256:p%d", persistence.MaxPlayedWith-1) {
		t.Fatalf("after %d more games ann keeps %d, newest %+v", persistence.MaxPlayedWith, len(ann.PlayedWith), ann.PlayedWith[0])
	}
}
