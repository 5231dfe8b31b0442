package sanitize

import "testing"

func TestCutMarksWhatItCuts(t *testing.T) {
	for in, want := range map[string]string{
		"Anna":      "Anna",
		"abcdefgh":  "abcdefgh",
		"abcdefghi": "abcdefg…",
		"Святослав Ярополкович": "Святосл…",
		"a\x1b[31mb\u202e":      "ab",
		"":                      "",
	} {
		if got := Cut(in, 8); got != want {
			t.Errorf("Cut(%q, 8) = %q, want %q", in, got, want)
		}
	}
}
