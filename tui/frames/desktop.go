package frames

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Desktop notifications: a terminal that knows OSC 9 (iTerm2, kitty,
// WezTerm, Ghostty, Windows Terminal's cousins) or OSC 777 (foot,
// rxvt-unicode, VTE) shows a sequence of it as a notification on the
// player's desktop; one that knows neither ignores it. It goes out on the
// session's own write path, with the next frame or alone, so a slow
// terminal holds up nobody but itself.

// The sequences a player may choose (their profile's desktop setting).
const (
	OSC9   = 9
	OSC777 = 777
)

// MaxDesktopText bounds a desktop notification's title and its body, in
// characters each: a notice is one line; the bound keeps a name or a
// title at its longest from making a wall of text on a desktop.
const MaxDesktopText = 200

// DesktopNote is a desktop notification: which sequence, a title (OSC 777
// only) and a body.
type DesktopNote struct {
	OSC         int
	Title, Body string
}

// Notifier is a Screen that may ask for a desktop notification (a notice
// came that the player wants on their desktop): Desktop reports it, and
// forgets. It goes out with the next write.
type Notifier interface {
	Desktop() (DesktopNote, bool)
}

// Sequence is n as the terminal reads it; nil for an OSC it does not
// know. Title and body are cleaned first: no control character (an
// escape or a BEL in a name would end the sequence and start another),
// no bidi override, no ';' in OSC 777's title (it parts the fields); in
// ASCII mode, romanised.
func (n DesktopNote) Sequence(ascii bool) []byte {
	body := oscText(n.Body, ascii)
	switch n.OSC {
	case OSC9:
		// ConEmu reads OSC 9 followed by a number and ';' as one of its own
		// commands (9;2 opens a message box): text never starts with a digit.
		if r, _ := utf8.DecodeRuneInString(body); unicode.IsDigit(r) {
			body = " " + body
		}
		return []byte("\x1b]9;" + body + "\a")
	case OSC777:
		title := strings.ReplaceAll(oscText(n.Title, ascii), ";", ",")
		return []byte("\x1b]777;notify;" + title + ";" + body + "\a")
	}
	return nil
}

// oscText is s as a notification may carry it: printable, one line, at
// most MaxDesktopText characters.
func oscText(s string, ascii bool) string {
	if ascii {
		s = uikit.ToASCII(uikit.Romanize(s))
	}
	s = strings.TrimSpace(uikit.Clean(s))
	if utf8.RuneCountInString(s) > MaxDesktopText {
		more := "…"
		if ascii {
			more = "..."
		}
		s = string([]rune(s)[:MaxDesktopText-utf8.RuneCountInString(more)]) + more
	}
	return s
}
