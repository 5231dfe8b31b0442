package plain

import (
	"io"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The usage lines list the games the server offers, whatever they are:
// a second game in the catalog shows up in help, new and rules alike.
func TestUsageListsTheGamesOnOffer(t *testing.T) {
	a := testApp(t)
	second := a.Games[0]
	second.Entry = game.Entry{Game: dice{}}
	a.Games = append(a.Games, second)
	d := start(t, a, "fp-ann", "ann")
	if h := d.help(); !strings.Contains(strings.Join(strings.Fields(h), " "), "new GAME (asks each option; GAME is coin or dice)") {
		t.Errorf("the help does not list the games:\n%s", h)
	}
	d.do("new", "new GAME PLAYERS BOTS, GAME being coin or dice;")
	d.do("new chess", "GAME being coin or dice;")
	d.do("rules", "rules GAME (coin or dice)")
}

// dice is coin under another ID.
type dice struct{ coin }

func (dice) ID() string { return "dice" }

// Plain mode's help names `replay CODE N` (the moment a review line
// marks) in every language, as `ssh host help` does.
func TestPlainHelpNamesTheReplayAtADecision(t *testing.T) {
	d := start(t, testApp(t), "fp-ann", "ann")
	for _, lang := range i18n.Langs {
		d.do("lang "+string(lang), "")
		if h, want := d.help(), "replay "+i18n.For(lang).T("cmd.help.code")+" N "; !strings.Contains(strings.Join(strings.Fields(h), " "), want) {
			t.Errorf("%s: no %q in the help:\n%s", lang, want, h)
		}
	}
}

// Every line plain mode's help writes fits an 80-column terminal, in the
// lobby and at a table, in every language, measured in cells: its
// paragraphs (up to 330 columns) broke mid-word on the player's screen.
func TestPlainHelpFitsEightyColumns(t *testing.T) {
	d := start(t, testApp(t), "fp-ann", "ann")
	// The welcome first (100 columns, one line a screen reader reads
	// whole): written late, it was read as the help's (under load).
	d.wait(0, i18n.For(i18n.English).T("plain.welcome"))
	check := func(where string, lang i18n.Lang) {
		t.Helper()
		out := d.help()
		lines := strings.Split(out, "\n")
		if len(lines) < 5 {
			t.Fatalf("%s %s: no help:\n%s", lang, where, out)
		}
		for _, l := range lines {
			if w := uikit.Width(strings.TrimRight(l, "\r")); w > 80 {
				t.Errorf("%s %s: %d columns: %q", lang, where, w, l)
			}
		}
	}
	for _, lang := range i18n.Langs {
		d.do("lang "+string(lang), "")
		check("lobby", lang)
	}
	d.do("new coin 2", "")
	for _, lang := range i18n.Langs {
		d.do("lang "+string(lang), "")
		check("table", lang)
	}
}

// help is what the help command writes (an unknown command typed after it
// marks its end).
func (d *driver) help() string {
	d.t.Helper()
	from := len(d.out.String())
	io.WriteString(d.in, "help\nxyzzy\n")
	out := d.wait(from, "xyzzy")
	return out[:strings.Index(out, "xyzzy")]
}
