package sanitize

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

//go:generate go run ./internal/mkconfusables -o confusables_table.go internal/mkconfusables/confusables.txt

// Fold is the form in which two display names are compared: names with the
// same fold read alike on screen, so only one player may hold them. It is
// the UTS #39 skeleton (each character replaced by the prototype Unicode's
// confusables data gives it, ConfusablesVersion), taken again after
// folding case, without accents, spaces, punctuation or symbols, and with
// a few Latin letters that terminal fonts draw alike (i, ı and ł as l)
// made one. "Аlice" with a Cyrillic А, "ɑlice", "Ꭺlice", "ᴀlice",
// "alicᥱ", "A.lice" and "ÁLICE" all fold as "alice" does; "Алиса" does
// not.
func Fold(name string) string {
	// Case folding comes between two skeletons: the first makes look-alike
	// capitals Latin (Cherokee Ꭺ → A), so that folding their case finds
	// the lower-case letter, whose own look-alikes the second one meets.
	s := strings.ToLower(skeleton(name))
	var b strings.Builder
	for _, r := range skeleton(s) {
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

// skeleton is UTS #39's skeleton of s: its compatibility decomposition
// (NFKD, so full-width and styled letters are plain ones), each character
// replaced by its prototype, decomposed again.
func skeleton(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if p, ok := prototype(r); ok {
			b.WriteString(p)
		} else {
			b.WriteRune(r)
		}
	}
	return norm.NFD.String(b.String())
}

// prototype is the character sequence r is confusable with, if any.
func prototype(r rune) (string, bool) {
	i := sort.Search(len(confusableFrom), func(i int) bool { return confusableFrom[i] >= r })
	if i < len(confusableFrom) && confusableFrom[i] == r {
		return confusableTo[i], true
	}
	return "", false
}

// lookalike maps what the skeleton leaves apart but a terminal font draws
// alike, after case folding: the skeleton keeps i and l apart, and a
// Polish ł is an l with a stroke; it keeps small capitals (ᴀ, ʙ…) as
// letters of their own, which at a terminal's size read as the letter;
// в and н are drawn as small capitals B and H; Tai Le's ᥱ is an e.
var lookalike = map[rune]rune{
	'ı': 'l', 'i': 'l', 'ł': 'l', 'в': 'b', 'н': 'h', 'ᥱ': 'e',
	'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ꜰ': 'f', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'l',
	'ᴊ': 'j', 'ᴋ': 'k', 'ʟ': 'l', 'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ꞯ': 'q', 'ʀ': 'r',
	'ꜱ': 's', 'ᴛ': 't', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ʏ': 'y', 'ᴢ': 'z',
}
