// Package sanitize cleans text that players type before anyone else sees it.
//
// Line is for chat: it keeps printable text in any script (Polish, Russian,
// CJK, emoji) and removes everything that could move a cursor, recolour a
// screen, ring a bell, reorder text (bidi overrides) or hide text (zero-width
// characters). Name is for display names and also checks the allowed
// characters and the length.
//
// Both bound their work by the size of their output: a 10 MB paste is cut to
// a few bytes per wanted rune before it is scanned.
//
// Fold is how names are compared: look-alikes ("Аlice" with a Cyrillic А)
// fold together, so the server can keep one player per name.
//
// What this package does not do: it does not detect profanity, or text that
// is merely wide (CJK and emoji take two columns; 20 runes may take 40
// columns).
package sanitize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/words"

	"golang.org/x/text/unicode/norm"
)

// bytesPerRune bounds the input scanned per wanted output rune. A rune is at
// most 4 bytes; the rest is room for escapes and dropped characters, so text
// with some colour codes in it still fills the line.
const bytesPerRune = 16

// maxMarks is how many combining marks may follow one base character.
// Real scripts need at most a few; "zalgo" text stacks hundreds.
const maxMarks = 4

// Line returns s as one line of plain text of at most maxRunes runes:
//
//   - ANSI/ECMA-48 escape sequences (CSI, OSC, DCS, APC, PM, SOS, and 7-bit
//     or C1 introducers) are removed whole, not just their ESC;
//   - other C0 and C1 controls and DEL are removed;
//   - bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)
//     and zero-width or invisible characters (U+200B–U+200D, U+2060, U+FEFF,
//     other format characters, Hangul fillers) are removed;
//   - runs of whitespace of any kind (tabs, newlines, NBSP, ideographic
//     space) become one ASCII space, and the result has no leading or
//     trailing space;
//   - invalid UTF-8 is removed; at most 4 combining marks follow a character.
//
// The result is valid UTF-8 and Line(Line(s, n), n) == Line(s, n).
// maxRunes <= 0 gives "".
func Line(s string, maxRunes int) string {
	if maxRunes <= 0 {
		return ""
	}
	if maxRunes < (len(s)-64)/bytesPerRune { // written so a huge maxRunes can't overflow
		s = s[:maxRunes*bytesPerRune+64] // a rune cut in half decodes as invalid and is dropped
	}
	var b strings.Builder
	b.Grow(len(s))
	n := 0     // runes written
	marks := 0 // combining marks written since the last other rune
	pendingSpace := false
	for i := 0; i < len(s) && n < maxRunes; {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			i++
			continue
		case r == 0x1b:
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // C1 DCS SOS OSC PM APC
			i = skipString(s, i+size)
			continue
		}
		i += size
		if unicode.IsSpace(r) {
			pendingSpace = n > 0
			continue
		}
		if !keep(r) {
			continue
		}
		isMark := unicode.In(r, unicode.Mn, unicode.Me)
		if isMark && marks >= maxMarks {
			continue
		}
		if pendingSpace {
			if n+2 > maxRunes {
				break // no room for the space and this rune: end here
			}
			b.WriteByte(' ')
			n++
			marks = 0
			pendingSpace = false
		}
		if isMark {
			marks++
		} else {
			marks = 0
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// keep reports whether a non-space rune is visible text.
func keep(r rune) bool {
	if !unicode.IsGraphic(r) { // drops Cc, Cf (bidi, zero-width), Co, Cs, Cn, Zl, Zp
		return false
	}
	switch r {
	case 0x034f, // combining grapheme joiner: invisible
		0x115f, 0x1160, 0x3164, 0xffa0, // Hangul fillers: invisible letters
		0x2800: // braille blank: a letter that shows nothing
		return false
	}
	return true
}

// skipEscape returns the index just past the escape sequence whose ESC ends
// right before s[i]. A lone ESC (followed by a control, non-ASCII or nothing)
// is dropped on its own.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	c := s[i]
	switch {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, i+1)
	case c >= 0x20 && c <= 0x2f: // intermediates, then one final byte
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e: // two-byte sequence: ESC 7, ESC c, ESC M…
		return i + 1
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte. A byte
// that can't be part of a CSI ends it there and is read as text.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f:
			i++
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return i
		}
	}
	return i
}

// skipString skips a control string (OSC, DCS, SOS, PM, APC) up to and
// including its terminator: BEL, ESC \ or C1 ST. CAN and SUB cancel it. An
// unterminated string runs to the end of the input, as it would on a terminal.
func skipString(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c == 0x07 || c == 0x18 || c == 0x1a:
			return i + 1
		case c == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // another escape begins
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // U+009C ST
			return i + 2
		default:
			i++
		}
	}
	return i
}

// MaxNameRunes is the longest display name, in runes after cleaning.
const MaxNameRunes = 20

// ErrInvalidName is wrapped by every error Name returns.
var ErrInvalidName = words.NewError("name.err.invalid")

// Name cleans a display name as Line does, normalises it to NFC (so "é"
// typed as e + accent is one rune) and checks it: 1 to 20 runes of letters
// (any script, with their combining marks), digits, single spaces and - _ . '
// with no space at either end. The error wraps ErrInvalidName and says what
// is wrong, in words a player can act on.
func Name(s string) (string, error) {
	return checkName(s, nameErrors{"name.err.empty", "name.err.long", "name.err.char"})
}

// CampaignName checks a campaign's name by Name's rules; its errors speak
// of a campaign's name, which several languages call by another word than
// a person's.
func CampaignName(s string) (string, error) {
	return checkName(s, nameErrors{"name.campaign_err.empty", "name.campaign_err.long", "name.campaign_err.char"})
}

// nameErrors are the catalog keys of a name's three refusals.
type nameErrors struct{ empty, long, char string }

// checkName is Name saying its refusals with keys.
func checkName(s string, keys nameErrors) (string, error) {
	// Line keeps at most maxMarks marks per character, so a name of 20
	// characters is at most 20*(1+maxMarks) runes before NFC: cleaning one
	// more than that tells "too long" apart from "just fits".
	clean := norm.NFC.String(Line(s, MaxNameRunes*(1+maxMarks)+1))
	n := utf8.RuneCountInString(clean)
	switch {
	case n == 0:
		return "", words.Refuse(ErrInvalidName, words.M(keys.empty))
	case n > MaxNameRunes:
		return "", words.Refuse(ErrInvalidName, words.M(keys.long, words.Num("Max", MaxNameRunes)))
	}
	prevLetter := false // a mark must follow a letter, digit or mark
	for _, r := range clean {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r):
			prevLetter = true
		case unicode.IsMark(r) && prevLetter:
		case r == ' ', strings.ContainsRune("-_.'", r):
			prevLetter = false
		default:
			return "", words.Refuse(ErrInvalidName, words.M(keys.char, words.Text("Char", strconv.QuoteRune(r))))
		}
	}
	return clean, nil
}
