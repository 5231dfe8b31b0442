package uikit

import (
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

func TestASCIIKeepsTheLayout(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"╭──────╮", "+------+"},
		{"│ ▶★ Ann (you) │", "| >* Ann (you) |"},
		{"Zażółć gęślą jaźń", "Zazolc gesla jazn"},
		{"Жанна · Ёлка", "Zanna . Elka"},
		{"Straße…", "Strase."},
		{"\x1b[1;38;5;180mBivouac\x1b[0m — ok", "\x1b[1;38;5;180mBivouac\x1b[0m - ok"},
		{"対局 ✗", "???? x"},
	} {
		if got := ToASCII(tc.in); got != tc.want {
			t.Errorf("ToASCII(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every character of the Basic Multilingual Plane becomes printable ASCII
// exactly as wide as it is drawn, so no screen shifts.
func TestEveryCharacterBecomesASCIIOfItsWidth(t *testing.T) {
	for r := rune(0x80); r <= 0xffff; r++ {
		if r >= 0xd800 && r <= 0xdfff || !unicode.IsPrint(r) {
			continue
		}
		a := asciiFor(r)
		for i := 0; i < len(a); i++ {
			if a[i] < 0x20 || a[i] > 0x7e {
				t.Fatalf("%U %q: %q is not printable ASCII", r, r, a)
			}
		}
		if w := ansi.StringWidth(string(r)); len(a) != w {
			t.Errorf("%U %q (width %d) became %q", r, r, w, a)
		}
	}
}
