package commands

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui"
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
		if !strings.Contains(help, want+" ") || !strings.Contains(help, p.T("cmd.help.replay_at")) {
			t.Errorf("%s: the help does not name %q:\n%s", lang, want, help)
		}
	}
}
