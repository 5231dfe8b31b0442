package uikit

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Romanize writes Cyrillic in Latin letters by the BGN/PCGN romanisation
// (Russian 1947, Ukrainian 1965, Belarusian 1979) in its simplified form,
// without diacritics or apostrophes: я ya, ю yu, ж zh, щ shch, х kh, ц ts,
// ч ch, ш sh, й y, ё yo, ы y, э e, ъ and ь dropped, е as ye at the start
// of a word and after a vowel. German letters take their German
// replacements (ä ae, ö oe, ü ue, ß ss), and an ellipsis is three dots
// (the per-cell swap would leave one, which reads as a full stop). Every
// other character is left as it is: the per-cell swap (AppendASCII) gives
// accented letters their base letter and draws box lines.
//
// A romanised word is longer than the Cyrillic one (Щ is four letters), so
// text is romanised before it is laid out (Theme.SetASCII), never in the
// final swap, which must keep every character's width.
func Romanize(s string) string {
	if !needsRomanizing(s) {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for i, r := range rs {
		lo := unicode.ToLower(r)
		a, ok := romanLetters[lo]
		if !ok {
			b.WriteRune(r)
			continue
		}
		if lo == 'е' && (i == 0 || yeAfter(rs[i-1])) {
			a = "ye"
		}
		if lo != r {
			a = upperRoman(a, rs, i)
		}
		b.WriteString(a)
	}
	return b.String()
}

// needsRomanizing: s holds a letter Romanize changes.
func needsRomanizing(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			continue
		}
		for _, r := range s[i:] {
			if _, ok := romanLetters[unicode.ToLower(r)]; ok {
				return true
			}
		}
		return false
	}
	return false
}

// yeAfter: after prev, е is written ye (prev is no letter, a vowel, й, ъ or ь).
func yeAfter(prev rune) bool {
	if !unicode.IsLetter(prev) {
		return true
	}
	return strings.ContainsRune("аеёиоуыэюяйъьіїє", unicode.ToLower(prev))
}

// upperRoman is a, romanised from the capital rs[i]: all capitals inside a
// word in capitals (ЩИ → SHCHI), else a capital first letter (Щи → Shchi).
func upperRoman(a string, rs []rune, i int) string {
	if a == "" {
		return a
	}
	caps := false
	switch {
	case i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
		caps = unicode.IsUpper(rs[i+1])
	case i > 0 && unicode.IsLetter(rs[i-1]):
		caps = unicode.IsUpper(rs[i-1])
	}
	if caps {
		return strings.ToUpper(a)
	}
	return strings.ToUpper(a[:1]) + a[1:]
}

// romanLetters are the lower-case letters Romanize replaces, and "…".
var romanLetters = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "yo", 'ж': "zh", 'з': "z", 'и': "i",
	'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t",
	'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "",
	'э': "e", 'ю': "yu", 'я': "ya",
	'і': "i", 'ї': "yi", 'є': "ye", 'ґ': "g", 'ў': "w",
	'ä': "ae", 'ö': "oe", 'ü': "ue", 'ß': "ss",
	'…': "...",
}
