package commands

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// `ssh host help` names `replay CODE N` beside `replay CODE`, in every
// language: the review marks its decisions #N, and the help named only the
// story without them.
func TestHelpNamesTheReplayAtADecision(t *testing.T) {
	c := Commands{App: &tui.App{JoinHint: "ssh -p 2222 example.org"}}
	for _, lang := range i18n.Langs {
		p := i18n.For(lang)
		help := c.help(p)
		code := p.T("cmd.help.code")
		want := "ssh -p 2222 example.org replay " + code + " N"
		if !strings.Contains(help, want+"\n") || !strings.Contains(strings.Join(strings.Fields(help), " "), p.T("cmd.help.replay_at")) {
			t.Errorf("%s: the help does not name %q:\n%s", lang, want, help)
		}
	}
}

// Every line of `ssh host help` fits an 80-column terminal in every
// language, measured in cells: its rows were 90 to 140 columns and broke
// mid-word. Every word of the catalog's text is still there, and each
// example command whole on one line.
func TestHelpFitsEightyColumns(t *testing.T) {
	hint := "ssh -p 2222 games.example.org"
	c := Commands{App: &tui.App{JoinHint: hint}}
	for _, lang := range i18n.Langs {
		p := i18n.For(lang)
		help := c.help(p)
		for _, line := range strings.Split(help, "\n") {
			if w := uikit.Width(line); w > 80 {
				t.Errorf("%s: %d columns: %q", lang, w, line)
			}
		}
		words := strings.Join(strings.Fields(help), " ")
		for _, key := range []string{"lobby", "join", "learn", "play", "plain", "rooms", "profile", "games",
			"notify", "friends", "friend", "replay", "replay_at", "review", "help"} {
			if d := p.T("cmd.help." + key); !strings.Contains(words, strings.Join(strings.Fields(d), " ")) {
				t.Errorf("%s: cmd.help.%s is not in the help:\n%s", lang, key, help)
			}
		}
		for _, example := range []string{"ssh -p 2222 g-xxxx-xxxx-xxxx@games.example.org", "ssh -o SetEnv=LANG=pl_PL.UTF-8 -p 2222 games.example.org"} {
			if !strings.Contains(help, example) {
				t.Errorf("%s: %q is not whole on one line:\n%s", lang, example, help)
			}
		}
	}
}
