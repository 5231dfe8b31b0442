package server

import (
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// A campaign's mission is played with the options its members chose (the
// strong bot and hints here, issue 30 item 3), and the choice holds for
// the next mission and across a restart. A level or a clock the server
// does not offer, or a player outside the campaign, changes nothing.
func TestCampaignMissionKeepsItsTableOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rec := srv.records
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	eve := table.Player{ID: "SHA256:eve", Name: "eve"}
	c, err := rec.CreateCampaign(ann, "Verdun", 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := (tui.CampaignOptions{BotLevel: "easy", TurnClock: 90 * time.Second}); c.Options != want || !slices.Contains(c.BotLevels, "strong") {
		t.Fatalf("a new campaign's options %+v (levels %v), want %+v", c.Options, c.BotLevels, want)
	}
	strong := tui.CampaignOptions{BotLevel: "strong", Hints: true, TurnClock: 3 * time.Minute}
	for _, bad := range []struct {
		who table.Player
		o   tui.CampaignOptions
	}{
		{ann, tui.CampaignOptions{BotLevel: "godlike", TurnClock: 0}},
		{ann, tui.CampaignOptions{BotLevel: "strong", TurnClock: 7 * time.Minute}},
		{eve, strong},
	} {
		if _, err := rec.SetCampaignOptions(bad.who, c.Code, bad.o); err == nil {
			t.Fatalf("%s set %+v", bad.who.Name, bad.o)
		}
	}
	if got, _ := rec.Campaign(c.Code); got.Options != c.Options {
		t.Fatalf("a refused choice changed the options: %+v", got.Options)
	}
	if c, err = rec.SetCampaignOptions(ann, c.Code, strong); err != nil || c.Options != strong {
		t.Fatalf("ann's choice: %+v, %v", c.Options, err)
	}

	mission := func(c tui.Campaign) {
		t.Helper()
		g, spec, err := rec.CampaignTable(c)
		if err != nil {
			t.Fatal(err)
		}
		if spec.BotLevel != "strong" || spec.TurnClock != 3*time.Minute || !spec.Hints || spec.Title.Key != "campaign.mission.title_hints" {
			t.Fatalf("the mission's table: bot %q clock %v hints %v title %q; want the strong bot, 3 minutes, hints said in the title",
				spec.BotLevel, spec.TurnClock, spec.Hints, spec.Title.Key)
		}
		cfg := srv.app.Room
		cfg.Game, cfg.Bots, cfg.Seats, cfg.Options, cfg.Title = g.Game, g.Bots, spec.Seats, spec.Options, spec.Title
		cfg.Host, cfg.BotLevel, cfg.Campaign, cfg.Allowed, cfg.TurnClock = ann.ID, spec.BotLevel, spec.Campaign, spec.Allowed, spec.TurnClock
		cfg.Hints = spec.Hints
		r, err := srv.hub.Create(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Summary().Hints {
			t.Fatal("the mission's table gives no hints")
		}
	}
	mission(c)
	finishMission(t, srv, c.Code, c.Trials, true, []table.SeatRecord{{Seat: 0, Identity: ann.ID, Name: "ann"}, {Seat: 1, Bot: "strong", Name: "Bruno"}})
	if c, err = rec.Campaign(c.Code); err != nil || c.Options != strong || c.Trials != 22 {
		t.Fatalf("after a mission: %+v, %v", c, err)
	}
	srv.Close()

	srv2, _ := startServer(t, dir)
	srv = srv2
	rec = srv2.records
	if c, err = rec.Campaign(c.Code); err != nil || c.Options != strong {
		t.Fatalf("after a restart the options are %+v (%v), want %+v", c.Options, err, strong)
	}
	mission(c)
}
