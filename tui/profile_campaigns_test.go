package tui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// campRecordsProfile is a profile with two campaigns: one climbing, one
// won at 30.
type campRecordsProfile struct{ profRecords }

func (campRecordsProfile) Campaigns(string) ([]Campaign, error) {
	return []Campaign{
		{Code: "7KQ2XM", Name: "Преображенская Верд", Players: 2, Trials: 24, Target: 30, Wins: 2, Losses: 1},
		{Code: "Q3ZZ9AB", Name: "Somme", Players: 3, Trials: 30, Target: 30, Wins: 4, Losses: 2, Veteran: true},
	}, nil
}

// The profile page lists the player's campaigns, each with its pile for
// the next game, wins and losses and its veteran mark, at 80×24 in every
// language (issue 42 item 2: only `ssh host profile` listed them).
func TestTheProfilePageShowsCampaignProgress(t *testing.T) {
	a := testApp(t)
	a.Records = campRecordsProfile{}
	for _, l := range i18n.Langs {
		s := newSessionIn(t, a, "fp-alice", "alice", l)
		openProfile(s.m)
		s.fits()
		th := s.m.th
		v := s.m.View()
		lines := strings.Split(v, "\n")
		if len(lines) > 24 {
			t.Errorf("%s: the profile is %d lines at 80×24", l, len(lines))
		}
		if !strings.Contains(v, th.T("ui.campaign.list_title")) {
			t.Errorf("%s: no campaigns header:\n%s", l, v)
		}
		for _, want := range []string{"7KQ2XM", "Преображенская Верд", "24/30", "Q3ZZ9AB", "★",
			th.T("ui.campaign.won_lost", game.Num("Won", 2), game.Num("Lost", 1)), th.T("ui.campaign.won_lost", game.Num("Won", 4), game.Num("Lost", 2))} {
			if !strings.Contains(v, want) {
				t.Errorf("%s: the profile does not show %q:\n%s", l, want, v)
			}
		}
	}
}

// The campaigns page says its rules in brief whole at 80 columns in every
// language: the Polish title was cut at "…daje tytuł…" (issue 42 item 7).
func TestTheCampaignsPageSaysItsRulesWhole(t *testing.T) {
	a := testApp(t)
	a.Records = campRecordsProfile{}
	for _, l := range i18n.Langs {
		s := newSessionIn(t, a, "fp-alice", "alice", l)
		openCampaigns(s.m)
		s.fits()
		v := strings.Join(strings.Fields(s.m.View()), " ")
		if about := strings.Join(strings.Fields(s.m.th.T("ui.campaign.list_about")), " "); !strings.Contains(v, about) {
			t.Errorf("%s: the campaigns page cuts %q:\n%s", l, about, s.m.View())
		}
	}
}
