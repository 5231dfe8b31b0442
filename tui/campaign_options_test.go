package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// optRecords keeps one campaign's options as a store would.
type optRecords struct {
	campRecords
	set []CampaignOptions
}

func (r *optRecords) SetCampaignOptions(_ table.Player, _ string, o CampaignOptions) (Campaign, error) {
	r.set = append(r.set, o)
	r.c.Options = o
	return *r.c, nil
}

// The campaign page offers a free table's options for the next mission
// (bot level, turn clock, hints), keeps each change with the campaign and
// says which bot stands in for a missing member (issue 30 item 3).
func TestCampaignPageChoosesTheMissionsOptions(t *testing.T) {
	a := testApp(t)
	c := &Campaign{Code: "7KQ2XM", Name: "Somme", Players: 3, Trials: 20, Target: 30, Members: []string{"ann"},
		Options: CampaignOptions{BotLevel: "easy", TurnClock: 90 * time.Second}, BotLevels: []string{"easy", "strong"}}
	rec := &optRecords{campRecords: campRecords{c: c}}
	a.Records = rec
	s := newSession(t, a, "fp-ann", "ann")
	openCampaign(s.m, *c)
	if v := s.m.View(); !strings.Contains(v, "played by a bot (easy)") || !strings.Contains(v, "90 seconds") {
		t.Fatalf("the page does not say which bot stands in:\n%s", v)
	}
	s.keys("l")                 // the bot: strong
	s.keys("down", "down", "l") // hints: on
	want := CampaignOptions{BotLevel: "strong", Hints: true, TurnClock: 90 * time.Second}
	if len(rec.set) != 2 || rec.set[1] != want {
		t.Fatalf("kept %+v, want the last to be %+v", rec.set, want)
	}
	v := s.m.View()
	for _, w := range []string{"played by a bot (strong)", "Kept for this campaign's next missions", "◂ yes ▸"} {
		if !strings.Contains(v, w) {
			t.Fatalf("the page lacks %q:\n%s", w, v)
		}
	}
	// Read again (a friend's change, or a reopened page): the page shows
	// what the campaign keeps.
	c.Options.TurnClock = 0
	s.send(campaignRefresh{s.m.page.(*campaignPage)})
	if v := s.m.View(); !strings.Contains(v, "Pace") || !strings.Contains(v, "live: no clock") {
		t.Fatalf("the kept clock does not show:\n%s", v)
	}
	// One more step: the missions are played by correspondence, an hour a
	// move.
	s.keys("k", "l") // k: up to the pace
	want = CampaignOptions{BotLevel: "strong", Hints: true, Pace: table.Pace{Correspondence: true, Decision: time.Hour}}
	if got := rec.set[len(rec.set)-1]; got != want {
		t.Fatalf("kept %+v, want %+v", got, want)
	}
	if v := s.m.View(); !strings.Contains(v, "by correspondence: an hour a move") {
		t.Fatalf("the page does not show the pace:\n%s", v)
	}
}

// At 80 columns the campaign list keeps its words whole in every language
// (the Polish "przegrane" was cut, issue 30 item 8): the bar gives way.
func TestCampaignListKeepsItsWordsAt80(t *testing.T) {
	for _, l := range i18n.Langs {
		a := testApp(t)
		c := Campaign{Code: "7KQ2XM", Name: "Verdun-Somme-Chemin-", Players: 3, Trials: 26, Target: 30, Wins: 12, Losses: 13, Veteran: true}
		a.Records = campRecords{c: &c}
		s := newSessionIn(t, a, "fp-ann", "ann", l)
		s.m.show(&campaignsPage{campaigns: []Campaign{c}, newPlayers: 2, bind: newPagesKeys(s.m.th)})
		want := s.m.th.T("ui.campaign.won_lost", game.Num("Won", 12), game.Num("Lost", 13)) + " ★"
		if v := s.m.View(); !strings.Contains(v, want) {
			t.Errorf("%s: the list cuts %q:\n%s", l, want, v)
		}
	}
}

// newRecords records the campaigns a test makes.
type newRecords struct {
	campRecords
	names []string
}

func (r *newRecords) CreateCampaign(_ table.Player, name string, players int) (Campaign, error) {
	r.names = append(r.names, name)
	return Campaign{Code: "7KQ2XM", Name: name, Players: players}, nil
}

// A new campaign's prompt holds a name that will do, in the player's
// language, so enter alone makes it: the Polish prompt showed a grey hint
// that looked like a name, and enter on it said the name was empty.
func TestNewCampaignPromptOffersAName(t *testing.T) {
	a := testApp(t)
	rec := &newRecords{campRecords: campRecords{c: &Campaign{}}}
	a.Records = rec
	s := newSessionIn(t, a, "fp-ann", "ann", i18n.Polish)
	s.m.show(&campaignsPage{campaigns: []Campaign{{Code: "7KQ2XM", Name: "Somme", Players: 2}}, newPlayers: 2, bind: newPagesKeys(s.m.th)})
	s.keys("n", "enter")
	if len(rec.names) != 1 || rec.names[0] != "Kampania 2" {
		t.Fatalf("enter on the new campaign's prompt made %q, want [Kampania 2]", rec.names)
	}
}
