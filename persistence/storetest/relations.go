package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

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
