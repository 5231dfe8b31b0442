package tui

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/x/ansi"
)

// Dates are written the same in every language the server speaks.
const (
	dateLayout     = "2006-01-02"
	DateTimeLayout = "2006-01-02 15:04"
)

// pad cuts or pads s to w cells (display width, not bytes or runes).
func pad(th *uikit.Theme, s string, w int) string {
	s = th.Trunc(s, w)
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}
