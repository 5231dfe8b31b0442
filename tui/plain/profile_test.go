package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// campaignRecords is a profile with a campaign under way and one won.
type campaignRecords struct{ genderRecords }

func (*campaignRecords) Campaigns(string) ([]tui.Campaign, error) {
	return []tui.Campaign{
		{Code: "7KQ2XM", Name: "Verdun", Players: 2, Trials: 24, Target: 30, Wins: 2, Losses: 1},
		{Code: "Q3ZZ9A", Name: "Somme", Players: 3, Trials: 30, Target: 30, Wins: 4, Losses: 2, Veteran: true},
	}, nil
}

// Plain mode's profile reads each campaign as a sentence: its pile for the
// next game or its win at 30, its wins and losses (issue 42 item 2).
func TestThePlainProfileReadsCampaigns(t *testing.T) {
	a := testApp(t)
	a.Records = &campaignRecords{}
	for lang, want := range map[i18n.Lang][]string{
		i18n.English: {"Campaigns:", "7KQ2XM Verdun: 2 players, won 2 lost 1. Trials pile for the next game: 24 of 30.",
			"Q3ZZ9A Somme: 3 players, won 4 lost 2. Won at 30: everyone who played that game is a veteran."},
		i18n.Polish: {"Kampanie:", "7KQ2XM Verdun: 2 gracze, wygrane 2 przegrane 1. Stos doświadczeń w następnej grze: 24 z 30.",
			"Q3ZZ9A Somme: 3 gracze, wygrane 4 przegrane 2. Wygrana przy 30: każda osoba, która grała w tej grze, ma status weterana."},
	} {
		var out bytes.Buffer
		Run(a, Session{Ctx: t.Context(), Player: table.Player{ID: "fp-alice", Name: "alice"}, Lang: lang,
			In: strings.NewReader("profile\nquit\n"), Out: &out})
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: the profile lacks %q:\n%s", lang, w, out.String())
			}
		}
	}
}
