package werewolfui

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestAfterNightsCountsInWords(t *testing.T) {
	en := i18n.For(i18n.English)
	for n, want := range map[int]string{1: "after 1 night", 2: "after 2 nights", 11: "after 11 nights"} {
		if got := en.T("werewolfui.after_nights", game.Count(n)); got != want {
			t.Errorf("after_nights(%d) = %q, want %q", n, got, want)
		}
	}
}
