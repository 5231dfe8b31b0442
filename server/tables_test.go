package server

import (
	"errors"
	"testing"
	"time"

	"bivouac/i18n"
	"bivouac/table"
)

// One connection made 230 campaigns in 10 s, each stored for good. A
// player starts campaignsPerPlayer an hour, an address campaignsPerAddr
// (new keys from one address do not get round it); past that the refusal
// says so, and nothing is stored.
func TestCampaignStartsAreBoundedPerPlayerAndAddress(t *testing.T) {
	srv, _ := startServer(t, t.TempDir())
	clk := &guessClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv.campaignStarts = newStartLimit(clk.Now, campaignWindow, campaignsPerPlayer, campaignsPerAddr)
	rec := records{srv}
	start := func(id, addr string) error {
		_, err := rec.CreateCampaign(table.Player{ID: id, Addr: addr}, "Squad", 3)
		return err
	}
	for i := range campaignsPerPlayer {
		if err := start("SHA256:ann", "10.0.0.1"); err != nil {
			t.Fatalf("campaign %d: %v", i+1, err)
		}
	}
	err := start("SHA256:ann", "10.0.0.2")
	if !errors.Is(err, errTooManyCampaigns) {
		t.Fatalf("campaign %d of one player in an hour: %v", campaignsPerPlayer+1, err)
	}
	if got := i18n.For(i18n.English).Error(err); got != "you started 3 campaigns in the last hour: start the next one later" {
		t.Fatalf("told %q", got)
	}
	for i := campaignsPerPlayer; i < campaignsPerAddr; i++ {
		if err := start("SHA256:key"+string(rune('a'+i)), "10.0.0.1"); err != nil {
			t.Fatalf("campaign %d from the address: %v", i+1, err)
		}
	}
	if err := start("SHA256:fresh", "10.0.0.1"); !errors.Is(err, errTooManyCampaigns) {
		t.Fatalf("a fresh key from a busy address: %v", err)
	}
	if cs, _ := rec.Campaigns("SHA256:ann"); len(cs) != campaignsPerPlayer {
		t.Fatalf("ann has %d campaigns stored, want %d", len(cs), campaignsPerPlayer)
	}
	clk.Advance(campaignWindow)
	if err := start("SHA256:ann", "10.0.0.1"); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

// A new table's refusals are said in the player's words.
func TestTableLimitsAreSaidInWords(t *testing.T) {
	srv, _ := startServer(t, t.TempDir())
	g, _ := srv.app.Games.Lookup("grizzled")
	p := table.Player{ID: "SHA256:ann", Name: "ann", Addr: "10.0.0.1"}
	var err error
	for range tablesPerPlayer + 1 {
		cfg := srv.app.Room
		cfg.Game, cfg.Seats, cfg.Host, cfg.Addr = g.Game, 2, p.ID, p.Addr
		_, err = srv.hub.Create(cfg)
	}
	if got := i18n.For(i18n.Polish).Error(err); got != "masz już 4 otwarte stoły: najpierw skończ jeden z nich (stół, do którego nikt nie wraca, sam się zamyka)" {
		t.Fatalf("told %q", got)
	}
	if got := i18n.For(i18n.English).Error(table.ErrCannotCreate); got != "the server cannot start new tables right now; try again in a minute" {
		t.Fatalf("told %q", got)
	}
}
