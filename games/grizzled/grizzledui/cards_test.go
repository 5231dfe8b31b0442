package grizzledui

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

func TestCardAdapters(t *testing.T) {
	s := New(uikit.New(nil))
	for id, want := range map[grizzled.CardID]string{T(4): "T04 Night+Shell", H(7): "H07 Wounded",
		H(6): "H06 Trauma", H(1): "H01 Phobia", H(19): "H19 Absent-minded", MC: "MC Merry Christmas"} {
		if c := s.card(id); c.code+" "+c.shortName() != want {
			t.Errorf("card %d = %q, want %q", id, c.code+" "+c.shortName(), want)
		}
	}
	if !s.card(T(30)).trap || s.card(T(29)).trap || !s.card(T(39)).shows(grizzled.Mask) || s.card(T(1)).shows(grizzled.Rain) {
		t.Error("traps or threats wrong")
	}
}
