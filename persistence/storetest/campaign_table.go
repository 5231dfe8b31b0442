package storetest

import (
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// A campaign keeps the table options its members chose, through a
// mission's result and until they choose again.
func testCampaignTableOptions(t *testing.T, open Opener) {
	s := open(t, tickClock())
	c, err := s.CreateCampaign(persistence.Campaign{ID: "verdun", Members: []string{"SHA256:ann"}, Trials: 20})
	if err != nil {
		t.Fatal(err)
	}
	if c.Table != nil {
		t.Fatalf("a new campaign has options: %+v", c.Table)
	}
	want := persistence.CampaignTable{BotLevel: "strong", Hints: true}
	if _, err := s.UpdateCampaign(c.ID, func(c *persistence.Campaign) error { c.Table = &want; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room1", 20, []string{"SHA256:ann"}, true, 22, false); err != nil {
		t.Fatal(err)
	}
	got, err := s.Campaign(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Table == nil || *got.Table != want || got.Trials != 22 {
		t.Fatalf("after a mission: %+v, want options %+v", got, want)
	}
	want = persistence.CampaignTable{BotLevel: "easy", TurnClock: 90 * time.Second}
	if _, err := s.UpdateCampaign(c.ID, func(c *persistence.Campaign) error { c.Table = &want; return nil }); err != nil {
		t.Fatal(err)
	}
	cs, err := s.Campaigns("SHA256:ann")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Table == nil || *cs[0].Table != want {
		t.Fatalf("chosen again: %+v, want options %+v", cs, want)
	}
}
