package frames

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// A desktop notification carries what a player named, cleaned: an escape
// or a BEL in a name cannot end the sequence and start one of its own, a
// ';' cannot add a field to OSC 777, and it is bounded.
func TestDesktopSequenceIsClean(t *testing.T) {
	evil := "Your move at K7QX: \x1b]52;c;aGk=\a\x1b[2J\u009b31m ann\u202e;x\r\n"
	for _, c := range []struct {
		n    DesktopNote
		want string
	}{
		{DesktopNote{OSC: OSC9, Body: "Your move at K7QX: The Grizzled"}, "\x1b]9;Your move at K7QX: The Grizzled\a"},
		{DesktopNote{OSC: OSC777, Title: "Bivouac", Body: "Your move"}, "\x1b]777;notify;Bivouac;Your move\a"},
		{DesktopNote{OSC: OSC777, Title: "a;b", Body: "c;d"}, "\x1b]777;notify;a,b;c;d\a"},
		{DesktopNote{OSC: OSC9, Body: "2;box"}, "\x1b]9; 2;box\a"}, // never a ConEmu command
		{DesktopNote{OSC: OSC9, Body: evil}, "\x1b]9;Your move at K7QX: ]52;c;aGk=[2J31m ann;x\a"},
		{DesktopNote{OSC: 0, Body: "x"}, ""},
	} {
		if got := string(c.n.Sequence(false)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.n, got, c.want)
		}
	}
	seq := DesktopNote{OSC: OSC777, Title: evil, Body: evil}.Sequence(false)
	inner := seq[len("\x1b]") : len(seq)-1]
	if bytes.ContainsFunc(inner, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e' }) {
		t.Errorf("a control character inside: %q", seq)
	}
	long := DesktopNote{OSC: OSC9, Body: strings.Repeat("ż", 3*MaxDesktopText)}.Sequence(false)
	if n := utf8.RuneCount(long) - len("\x1b]9;\a"); n != MaxDesktopText {
		t.Errorf("a long body keeps %d characters, want %d", n, MaxDesktopText)
	}
	if got := string(DesktopNote{OSC: OSC777, Title: "Biwak", Body: "Twój ruch przy K7QX: Wiarusi"}.Sequence(true)); got != "\x1b]777;notify;Biwak;Twoj ruch przy K7QX: Wiarusi\a" {
		t.Errorf("ASCII: %q", got)
	}
}

// The writer sends a notification with the bell, and never blocks the
// program: a second one replaces one not yet written.
func TestDesktopGoesOutWithTheNextWrite(t *testing.T) {
	var out bytes.Buffer
	w := &frameWriter{out: &out, done: make(chan struct{})}
	w.mu.Lock()
	w.writing = true // hold the writer: nothing goes out until write runs
	w.mu.Unlock()
	w.ring()
	w.notify(DesktopNote{OSC: OSC9, Body: "first"})
	w.notify(DesktopNote{OSC: OSC9, Body: "second"})
	w.write()
	if got := out.String(); got != "\a\x1b]9;second\a" {
		t.Fatalf("written %q", got)
	}
}
