package records

import (
	"errors"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// One connection made 230 campaigns in 10 s, each stored for good. A
// player starts campaignsPerPlayer an hour, an address campaignsPerAddr
// (new keys from one address do not get round it); past that the refusal
// says so, and nothing is stored.
func TestCampaignStartsAreBoundedPerPlayerAndAddress(t *testing.T) {
	t.Parallel()
	clk := clocktest.NewAt(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	rec := New(Options{Store: openStore(t), Games: games.Catalog(), Now: clk.Now})
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
