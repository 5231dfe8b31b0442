package uikit

import (
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/unicode/norm"
)

// ASCII mode is for terminals that show only ASCII (TERM=vt100, LANG=C):
// the screens are drawn as usual and every character is then swapped for
// ASCII of the same width, so the layout stays exactly as drawn. Lines
// become - | +, arrows < > ^ v, marks * x o; accented letters lose their
// accents, Cyrillic is written in Latin letters, anything else is "?".

// AppendASCII appends s to dst with every non-ASCII character replaced.
// Bytes below 0x80 (escape sequences included) pass unchanged.
func AppendASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		dst = append(dst, asciiFor(r)...)
	}
	return dst
}

// ToASCII is AppendASCII to a new string.
func ToASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return string(AppendASCII(make([]byte, 0, len(s)), s))
		}
	}
	return s
}

// asciiFor is r's ASCII stand-in, as wide as r is drawn.
func asciiFor(r rune) string {
	if a, ok := asciiSymbols[r]; ok {
		return a
	}
	switch {
	case r >= 0x2500 && r <= 0x257f: // box drawing
		return boxASCII(r)
	case r >= 0x2580 && r <= 0x259f: // block elements
		return "#"
	case r >= 0x0400 && r <= 0x04ff: // Cyrillic
		if a, ok := cyrillicASCII[unicode.ToLower(r)]; ok {
			if unicode.IsUpper(r) && a[0] >= 'a' && a[0] <= 'z' {
				return string(a[0]-'a'+'A') + a[1:]
			}
			return a
		}
	case unicode.IsLetter(r):
		// an accented Latin letter: its base letter
		if d := norm.NFD.String(string(r)); d != "" && d[0] < utf8.RuneSelf {
			return d[:1]
		}
	}
	switch ansi.StringWidth(string(r)) {
	case 0:
		return "" // combining marks, zero-width spaces
	case 2:
		return "??"
	}
	return "?"
}

// boxASCII draws the box-drawing block: horizontal lines as -, vertical
// as |, every corner and junction as +.
func boxASCII(r rune) string {
	switch r {
	case '─', '━', '═', '┄', '┅', '┈', '┉', '╌', '╍', '╴', '╶', '╸', '╺', '╼', '╾':
		return "-"
	case '│', '┃', '║', '┆', '┇', '┊', '┋', '╎', '╏', '╵', '╷', '╹', '╻', '╽', '╿':
		return "|"
	case '╱':
		return "/"
	case '╲':
		return "\\"
	case '╳':
		return "X"
	}
	return "+"
}

var asciiSymbols = map[rune]string{
	// arrows and pointers
	'←': "<", '→': ">", '↑': "^", '↓': "v", '↔': "-", '↕': "|",
	'▶': ">", '▸': ">", '►': ">", '◀': "<", '◂': "<", '◄': "<", '▲': "^", '▴': "^", '▼': "v", '▾': "v",
	'«': "<", '»': ">", '‹': "<", '›': ">", '⇒': ">", '⇐': "<",
	// marks
	'•': "*", '·': ".", '●': "*", '○': "o", '◉': "@", '◆': "*", '◇': "o", '■': "#", '□': "o", '▪': "*", '▫': "o",
	'★': "*", '☆': "*", '✓': "v", '✔': "v", '✗': "x", '✘': "x", '×': "x", '⚠': "!", '♥': "*", '☠': "X", '⌛': "~~",
	'…': ".", '—': "-", '–': "-", '‒': "-", '−': "-", '‐': "-",
	'“': "\"", '”': "\"", '„': "\"", '‘': "'", '’': "'", '‚': ",", '′': "'", '″': "\"",
	'†': "+", '≤': "<", '≥': ">", '\u00a0': " ", '\u202f': " ", '\u2009': " ", '°': "o", '±': "+", '§': "S", '¶': "P", '©': "C", '®': "R", '№': "N",
	// letters that do not decompose
	'ł': "l", 'Ł': "L", 'ß': "s", 'ẞ': "S", 'ø': "o", 'Ø': "O", 'đ': "d", 'Đ': "D", 'æ': "a", 'Æ': "A", 'œ': "o", 'Œ': "O",
	'ı': "i", 'ħ': "h", 'Ħ': "H", 'þ': "t", 'Þ': "T", 'ð': "d", 'Ð': "D",
}

// cyrillicASCII is one Latin letter per Cyrillic letter, so a name keeps
// its width (ж is "z", not "zh").
var cyrillicASCII = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "z", 'з': "z", 'и': "i",
	'й': "j", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t",
	'у': "u", 'ф': "f", 'х': "h", 'ц': "c", 'ч': "c", 'ш': "s", 'щ': "s", 'ъ': "'", 'ы': "y", 'ь': "'",
	'э': "e", 'ю': "u", 'я': "a", 'і': "i", 'ї': "i", 'є': "e", 'ґ': "g", 'ў': "u",
}
