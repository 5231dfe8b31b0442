package grizzledui

import (
	"testing"

	"bivouac/engine/grizzled"
)

// The display table must match the spec's totals (§1.3).
func TestCardTableMatchesSpec(t *testing.T) {
	var icons [grizzled.NumThreats]int
	traps, weight := 0, 0
	for id := grizzled.CardID(1); id <= grizzled.NumCards; id++ {
		c := card(id)
		for _, th := range c.threats {
			icons[th]++
		}
		if c.trap {
			traps++
		}
		weight += c.weight
	}
	for th, n := range icons {
		if n != 15 { // 14 on threat cards + 1 Phobia/Trauma
			t.Errorf("%s appears %d times, want 15", threatName(grizzled.Threat(th)), n)
		}
	}
	if traps != 9 || weight != 20 {
		t.Errorf("traps %d weight %d, want 9 and 20", traps, weight)
	}
	for id, want := range map[grizzled.CardID]string{T(4): "T04 Night+Shell", T(39): "T39 Night+Snow+Rain+Shell+Whistle+Gas mask",
		H(7): "H07 Wounded", H(6): "H06 Trauma Rain", H(19): "H19 Absent-minded", MC: "MC Merry Christmas"} {
		if c := card(id); c.code+" "+c.name != want {
			t.Errorf("card %d = %q, want %q", id, c.code+" "+c.name, want)
		}
	}
	if !card(T(30)).trap || card(T(29)).trap {
		t.Error("T30 has the Rain+Mask trap, T29 none")
	}
}
