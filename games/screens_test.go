package games

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/tui/uikit/screentest"
)

// TestEveryScreenConforms draws every registered game's screen as its
// players would see it (screentest): every language, 80×24 and 40×12.
func TestEveryScreenConforms(t *testing.T) {
	t.Parallel()
	for _, m := range Catalog() {
		screentest.Check(t, m)
	}
}
