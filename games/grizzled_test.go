package games

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
)

// Every variant a Grizzled game is counted under in the stats has a name
// in every language: a campaign mission's stats line read
// "grizzled.variant.campaign" in profiles.
func TestEveryStatsVariantHasAName(t *testing.T) {
	entry := Grizzled()
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
