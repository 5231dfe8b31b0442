package records

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/people"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// openStore is a bbolt store of the test's own, closed with it.
func openStore(t *testing.T) persistence.Store {
	t.Helper()
	store, err := persistence.Open(filepath.Join(t.TempDir(), "bivouac.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// TestCampaignJoinKeepsBlockedPlayersApart: a player a member blocked,
// or who blocked a member, cannot join the campaign; others can.
func TestCampaignJoinKeepsBlockedPlayersApart(t *testing.T) {
	t.Parallel()
	store := openStore(t)
	rel := people.NewRelations(store)
	rec := New(Options{Store: store, Games: games.Catalog(), Blocked: rel.Blocks})
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	troll := table.Player{ID: "SHA256:troll", Name: "troll"}
	bob := table.Player{ID: "SHA256:bob", Name: "bob"}
	for _, p := range []table.Player{ann, troll, bob} {
		store.Seen(p.ID, p.Name)
	}
	if err := rel.Set(ann, tui.BlockList, tui.Person{ID: troll.ID, Name: "troll"}, true); err != nil {
		t.Fatal(err)
	}
	c, err := rec.CreateCampaign(ann, "Verdun", 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.JoinCampaign(troll, c.Code); !errors.Is(err, errCampaignApart) {
		t.Fatalf("troll joining ann's campaign: %v", err)
	}
	if _, err := rec.JoinCampaign(bob, c.Code); err != nil {
		t.Fatal(err)
	}
	// The other way round: bob blocks ann; ann's second campaign refuses bob.
	if err := rel.Set(bob, tui.BlockList, tui.Person{ID: ann.ID, Name: "ann"}, true); err != nil {
		t.Fatal(err)
	}
	c2, _ := rec.CreateCampaign(ann, "Somme", 2)
	if _, err := rec.JoinCampaign(bob, c2.Code); !errors.Is(err, errCampaignApart) {
		t.Fatalf("bob, who blocked ann, joining her campaign: %v", err)
	}
}
