package uikit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// Every cut is marked with the theme's ellipsis: "…", or "..." on an ASCII
// terminal, where the per-cell swap turned "…" into one "." that reads as
// a full stop ("Svyatoslav Yaropol." for a cut name). Words the catalog
// ends with "…" read "..." there too, and so does a help bar cut short.
func TestEveryCutIsMarkedWithTheThemesEllipsis(t *testing.T) {
	uni, asc := New(nil), New(nil)
	asc.SetASCII(true)
	name := "Svyatoslav Yaropolkovich"
	for _, tt := range []struct {
		th   *Theme
		w    int
		want string
	}{
		{uni, 12, "Svyatoslav …"},
		{asc, 12, "Svyatosla..."},
		{asc, 2, ".."},
		{uni, 30, name},
		{asc, 30, name},
	} {
		got := tt.th.Trunc(name, tt.w)
		if got != tt.want {
			t.Errorf("ascii=%v Trunc(%q, %d) = %q, want %q", tt.th.ASCII(), name, tt.w, got, tt.want)
		}
		if drawn := ToASCII(got); tt.th.ASCII() && Width(drawn) != Width(got) {
			t.Errorf("the ASCII swap changed the cut's width: %q → %q", got, drawn)
		}
	}
	styled := "\x1b[1m" + name + "\x1b[0m"
	if got := ansi.Strip(asc.Trunc(styled, 12)); got != "Svyatosla..." {
		t.Errorf("a styled name cut in ASCII: %q", got)
	}
	if got := asc.Text("The seer wakes up…"); got != "The seer wakes up..." {
		t.Errorf("an ASCII theme's catalog ellipsis: %q", got)
	}
	keys := []key.Binding{key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "one key")),
		key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "another key")), key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "a third key"))}
	if got := ansi.Strip(asc.ShortHelp(30, keys)); !strings.HasSuffix(got, " ...") {
		t.Errorf("an ASCII help bar cut short: %q", got)
	}
	if got := ansi.Strip(uni.ShortHelp(30, keys)); !strings.HasSuffix(got, " …") {
		t.Errorf("a help bar cut short: %q", got)
	}
}
