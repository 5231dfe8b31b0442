package server

import (
	"errors"
	"testing"

	"bivouac/table"
	"bivouac/tui"
)

// TestCampaignJoinKeepsBlockedPlayersApart: a player a member blocked,
// or who blocked a member, cannot join the campaign; others can.
func TestCampaignJoinKeepsBlockedPlayersApart(t *testing.T) {
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rec := records{srv}
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	troll := table.Player{ID: "SHA256:troll", Name: "troll"}
	bob := table.Player{ID: "SHA256:bob", Name: "bob"}
	for _, p := range []table.Player{ann, troll, bob} {
		srv.store.Seen(p.ID, p.Name)
	}
	if err := srv.app.Relations.Set(ann, tui.BlockList, tui.Person{ID: troll.ID, Name: "troll"}, true); err != nil {
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
	if err := srv.app.Relations.Set(bob, tui.BlockList, tui.Person{ID: ann.ID, Name: "ann"}, true); err != nil {
		t.Fatal(err)
	}
	c2, _ := rec.CreateCampaign(ann, "Somme", 2)
	if _, err := rec.JoinCampaign(bob, c2.Code); !errors.Is(err, errCampaignApart) {
		t.Fatalf("bob, who blocked ann, joining her campaign: %v", err)
	}
}
