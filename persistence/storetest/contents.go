package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// Fill puts one of every kind of record in s: rooms with logs (one
// finished, counted in a profile), a campaign that made a veteran, a
// review. Tests of durability (a reopen, a backup, a cluster restart)
// fill a store, compare Contents before and after, then Check.
func Fill(t *testing.T, s persistence.Store) {
	t.Helper()
	mustPutRoom(t, s, testRoom("live"))
	for seq := uint64(1); seq <= 25; seq++ {
		if err := s.Append("live", seq, entry("live", seq)); err != nil {
			t.Fatal(err)
		}
	}
	mustPutRoom(t, s, testRoom("done"))
	if err := s.Append("done", 1, []byte("only")); err != nil {
		t.Fatal(err)
	}
	mustPutRoom(t, s, finished(testRoom("done"), 0))
	if _, err := s.CreateCampaign(persistence.Campaign{ID: "somme", Members: []string{"SHA256:ann"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordCampaignResult("somme", "done", 0, []string{"SHA256:ann"}, true, 30, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateCampaign("somme", func(c *persistence.Campaign) error {
		c.Table = &persistence.CampaignTable{BotLevel: "strong", Hints: true, TurnClock: 3 * time.Minute}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReview("done", json.RawMessage(`{"decisions":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdatePlayer("SHA256:ann", func(p *persistence.Profile) error { p.Gender = "f"; return nil }); err != nil {
		t.Fatal(err)
	}
}

// Contents is what Fill stored, read back through the Store interface.
type Contents struct {
	Rooms     []persistence.RoomRecord
	Logs      map[string][][]byte
	Ann       persistence.Profile
	Campaigns []persistence.Campaign
	History   []persistence.RoomRecord
	Review    string
}

// Read reads back what Fill stored.
func Read(t *testing.T, s persistence.Store) Contents {
	t.Helper()
	var d Contents
	var err error
	if d.Rooms, err = s.Rooms(); err != nil {
		t.Fatal(err)
	}
	d.Logs = map[string][][]byte{}
	for _, r := range d.Rooms {
		if d.Logs[r.ID], err = s.Log(r.ID); err != nil {
			t.Fatal(err)
		}
	}
	if d.Ann, err = s.Player("SHA256:ann"); err != nil {
		t.Fatal(err)
	}
	if d.Campaigns, err = s.Campaigns("SHA256:ann"); err != nil {
		t.Fatal(err)
	}
	if d.History, err = s.FinishedGames("SHA256:ann", 0); err != nil {
		t.Fatal(err)
	}
	review, err := s.Review("done")
	if err != nil {
		t.Fatal(err)
	}
	d.Review = string(review)
	return d
}

// Check fails t unless d holds everything Fill stored, and shows that the
// live room's log continues where it stopped.
func (d Contents) Check(t *testing.T, s persistence.Store) {
	t.Helper()
	if len(d.Rooms) != 2 || len(d.Logs["live"]) != 25 || len(d.Logs["done"]) != 1 ||
		!d.Ann.Veteran || len(d.Ann.Stats) != 1 || d.Ann.Gender != "f" || len(d.Campaigns) != 1 || len(d.History) != 1 ||
		d.Review != `{"decisions":[1,2]}` {
		t.Fatalf("contents are missing data: %+v", d)
	}
	if tb := d.Campaigns[0].Table; tb == nil || *tb != (persistence.CampaignTable{BotLevel: "strong", Hints: true, TurnClock: 3 * time.Minute}) {
		t.Fatalf("the campaign's table options are lost: %+v", tb)
	}
	if err := s.Append("live", 26, entry("live", 26)); err != nil {
		t.Fatalf("the log does not continue: %v", err)
	}
}
