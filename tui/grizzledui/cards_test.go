package grizzledui

import (
	"testing"

	"bivouac/game/grizzled"
)

func TestCardAdapters(t *testing.T) {
	for id, want := range map[grizzled.CardID]string{T(4): "T04 Night+Shell", H(7): "H07 Wounded",
		H(6): "H06 Trauma", H(1): "H01 Phobia", H(19): "H19 Absent-minded", MC: "MC Merry Christmas"} {
		if c := card(id); c.code+" "+c.shortName() != want {
			t.Errorf("card %d = %q, want %q", id, c.code+" "+c.shortName(), want)
		}
	}
	if !card(T(30)).trap || card(T(29)).trap || !card(T(39)).shows(grizzled.Mask) || card(T(1)).shows(grizzled.Rain) {
		t.Error("traps or threats wrong")
	}
}
