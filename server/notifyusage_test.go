package server

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// `ssh host notify` with no argument or a wrong one prints its commands:
// each line fits 80 columns in every language.
func TestNotifyUsageFitsEightyColumns(t *testing.T) {
	for _, l := range i18n.Langs {
		var out strings.Builder
		printUsage(&out, i18n.For(l).T("notify.cmd.usage"))
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) < 6 {
			t.Errorf("%s: %d lines, want one per command:\n%s", l, len(lines), out.String())
		}
		for _, line := range lines {
			if w := lipgloss.Width(line); w > 80 {
				t.Errorf("%s: %d columns: %q", l, w, line)
			}
		}
	}
}
