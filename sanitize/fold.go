package sanitize

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold is the form in which two display names are compared: names with the
// same fold read alike on screen, so only one player may hold them. It
// folds case and compatibility forms (NFKD), drops accents, spaces and
// punctuation, and maps letters that look like Latin letters (Cyrillic and
// Greek а е о р с х у к м т н в і ј ѕ ο α ε ρ ν κ τ ι, and the digits 0 and
// 1) onto them. "Аlice" with a Cyrillic А, "alice", "A.lice" and "ÁLICE"
// all fold to "alice"; "Алиса" does not.
func Fold(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(name) {
		switch {
		case unicode.Is(unicode.Mn, r), unicode.IsSpace(r), unicode.IsPunct(r), unicode.IsSymbol(r):
			continue // accents, gaps, "-", "_", ".", "'"
		}
		r = unicode.ToLower(r)
		if l, ok := lookalike[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lookalike maps letters (after lower-casing) to the Latin letter they are
// drawn like in common terminal fonts.
var lookalike = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'з': '3', 'і': 'l', 'ї': 'l', 'ј': 'j', 'к': 'k', 'м': 'm',
	'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'ԁ': 'd', 'һ': 'h',
	'ԛ': 'q', 'ԝ': 'w', 'ү': 'y',
	// Greek
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'l', 'κ': 'k', 'μ': 'u', 'ν': 'v', 'ο': 'o', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'χ': 'x', 'ω': 'w',
	// Latin and digits that pass for other Latin letters
	'ı': 'l', 'i': 'l', 'ł': 'l', '1': 'l', '|': 'l', '0': 'o',
}
