package admin

import (
	"slices"
	"testing"
)

// A console line splits into words; double quotes keep a name with
// spaces together, and an empty pair is an empty word.
func TestSplitCommand(t *testing.T) {
	for line, want := range map[string][]string{
		`ban ada 2h spam`:            {"ban", "ada", "2h", "spam"},
		`  kick   "Ada Lovelace"  x`: {"kick", "Ada Lovelace", "x"},
		`say "" hi`:                  {"say", "", "hi"},
		`mute "Jan Nowak`:            {"mute", "Jan Nowak"},
		``:                           nil,
	} {
		if got := splitCommand(line); !slices.Equal(got, want) {
			t.Errorf("splitCommand(%q) = %q, want %q", line, got, want)
		}
	}
}
