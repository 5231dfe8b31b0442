package grizzledui

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
)

// Every variant a Grizzled game is counted under in the stats has a name
// in every language: a campaign mission's stats line read
// "grizzled.variant.campaign" in profiles.
func TestEveryStatsVariantHasAName(t *testing.T) {
	entry := Module()
	var opts [][]byte
	for _, v := range []grizzled.Variant{grizzled.Beginner, grizzled.Standard, grizzled.Veteran} {
		o, _ := json.Marshal(grizzled.Options{Variant: v})
		opts = append(opts, o)
	}
	campaign, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, StartingTrials: 22})
	opts = append(opts, campaign)
	th := uikit.New(lipgloss.NewRenderer(io.Discard))
	for _, l := range i18n.Langs {
		th.SetLang(l)
		for _, o := range opts {
			v := entry.Variant(o)
			if name := entry.VariantName(th, v); v == "" || strings.Contains(name, "grizzled.variant") {
				t.Errorf("%s: variant %q of %s is named %q", l, v, o, name)
			}
		}
	}
}

// A campaign's pile reaches the coach (issue 42, item 11): the view a hint
// searches starts a game made from the campaign's options with that many
// trials cards, and the chances it shows follow the pile: fewer cards, a
// better chance, and at 29 cards beside strong bots not the 8% a coach
// blind to the team once showed (three such soldiers won 14 of 36 games
// of 29 or 30 cards in the first calibration run: 39%).
func TestACampaignsPileReachesTheCoach(t *testing.T) {
	entry := Module()
	chance := func(trials int) float64 {
		t.Helper()
		opts, err := entry.Campaign.Options(trials)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := grizzled.New(game.Setup{Game: "grizzled", Names: []string{"ann", "bob", "cleo"}, Options: opts}, 7)
		if err != nil {
			t.Fatal(err)
		}
		v := s.View(s.View(game.Spectator).Leader)
		left := v.Trials
		for _, p := range v.Players {
			left += p.HandSize
		}
		if left != trials || v.Options.Trials(3) != trials {
			t.Fatalf("a %d-card campaign game shows %d cards to clear, options say %d", trials, left, v.Options.Trials(3))
		}
		ad, ok := grizzbot.Hint(v, grizzbot.ReviewConfig{Samples: 120, Team: grizzbot.TeamOf([]string{"", "strong", "strong"})})
		if !ok {
			t.Fatal("no hint at the first intensity")
		}
		return ad.BestP.P
	}
	p21, p29 := chance(21), chance(29)
	t.Logf("beside strong bots, the first hint: 21 cards %.0f%%, 29 cards %.0f%%", 100*p21, 100*p29)
	if p21 <= p29 || p29 < 0.2 {
		t.Errorf("21 cards: %.0f%%, 29 cards: %.0f%%", 100*p21, 100*p29)
	}
}
