package sanitize

import "unicode/utf8"

// Cut is Line(s) in at most maxRunes runes, its last one "…" when
// something was cut: a text shortened to fit says so.
func Cut(s string, maxRunes int) string {
	if maxRunes <= 0 {
		return ""
	}
	full := Line(s, maxRunes+1)
	if utf8.RuneCountInString(full) <= maxRunes {
		return full
	}
	r := []rune(full)
	return string(r[:maxRunes-1]) + "…"
}
