package server

import (
	"errors"
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// TestCampaignJoinKeepsBlockedPlayersApart: a player a member blocked,
// or who blocked a member, cannot join the campaign; others can.
func TestCampaignJoinKeepsBlockedPlayersApart(t *testing.T) {
	t.Parallel()
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

// TestTextReplaysLeaveOutIgnoredChat: the check printReplay makes of each
// chat line: bob's, whom ann ignores, goes; cid's stays; and a guest's own
// list counts too.
func TestTextReplaysLeaveOutIgnoredChat(t *testing.T) {
	t.Parallel()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ann, guest := table.Player{ID: "SHA256:ann", Name: "ann"}, table.Player{ID: "guest:0011", Name: "g", Guest: true}
	bob := tui.Person{ID: "SHA256:bob", Name: "bob"}
	for _, p := range []table.Player{ann, guest} {
		if err := srv.app.Relations.Set(p, tui.IgnoreList, bob, true); err != nil {
			t.Fatal(err)
		}
	}
	seats := []table.SeatInfo{{Seat: 0, ID: "SHA256:cid", Name: "cid"}, {Seat: 1, ID: bob.ID, Name: "bob"}, {Seat: 2, Name: "Ada (bot)", Bot: "easy"}}
	for _, who := range []string{ann.ID, guest.ID} {
		ignores := srv.ignores(who)
		if !ignores(seats, 1) || ignores(seats, 0) || ignores(seats, 2) || ignores(seats, -1) {
			t.Fatalf("%s: bob %v, cid %v, the bot %v", who, ignores(seats, 1), ignores(seats, 0), ignores(seats, 2))
		}
	}
	if srv.ignores("SHA256:cid")(seats, 1) {
		t.Fatal("cid ignores nobody, yet bob's line would go")
	}
}
