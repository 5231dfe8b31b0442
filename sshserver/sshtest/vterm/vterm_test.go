package vterm

import (
	"strings"
	"testing"
)

func screenOf(t *testing.T, w, h int, chunks ...string) (*Term, string) {
	t.Helper()
	tm := New(w, h)
	tm.RecordText()
	for _, c := range chunks {
		tm.Write([]byte(c))
	}
	return tm, tm.Screen()
}

func lines(s ...string) string { return strings.Join(s, "\n") }

func TestScreens(t *testing.T) {
	tests := []struct {
		name   string
		w, h   int
		chunks []string
		want   string
	}{
		{"plain lines", 10, 3, []string{"hello\r\nworld"}, lines("hello", "world", "")},
		{"colours ignored", 10, 2, []string{"\x1b[1;38;5;196mred\x1b[0m ok"}, lines("red ok", "")},
		{"colours with sub-parameters move nothing; positions do", 10, 3,
			[]string{"\x1b[38;5;203mab\x1b[0m\x1b[3;2Hc\x1b[38:2::255:0:0md\x1b[1;10Hz\x1b[;3H-"},
			lines("ab-      z", "", " cd")},
		{"cursor position and erase line", 10, 3,
			[]string{"aaaaaaaaaa\r\nbbbbbbbbbb\r\ncccccccccc", "\x1b[2;3H\x1b[KX"},
			lines("aaaaaaaaaa", "bbX", "cccccccccc")},
		{"erase screen", 5, 2, []string{"abc\r\ndef\x1b[2J\x1b[Hz"}, lines("z", "")},
		{"erase below", 5, 3, []string{"aaaaa\r\nbbbbb\r\nccccc\x1b[2;2H\x1b[J"}, lines("aaaaa", "b", "")},
		{"erase above", 5, 3, []string{"aaaaa\r\nbbbbb\r\nccccc\x1b[2;2H\x1b[1J"}, lines("", "  bbb", "ccccc")},
		{"cursor up and redraw (bubbletea repaint)", 10, 3,
			[]string{"one\r\ntwo\r\nthree", "\r\x1b[2A\x1b[2KONE\r\n\x1b[2KTWO\x1b[K"},
			lines("ONE", "TWO", "three")},
		{"relative moves", 6, 3, []string{"\x1b[2Ba\x1b[2Ab\x1b[2Cc\x1b[4Dd\x1b[2ee\x1b[2af"}, lines(" d  c", "", "a e  f")},
		{"pending wrap: full line then CRLF", 5, 3, []string{"abcde\r\nfghij\r\nk"}, lines("abcde", "fghij", "k")},
		{"autowrap", 5, 3, []string{"abcdefg"}, lines("abcde", "fg", "")},
		{"scroll at bottom", 5, 2, []string{"a\r\nb\r\nc"}, lines("b", "c")},
		{"wide chars", 6, 2, []string{"你好x\r\n🎉!"}, lines("你好x", "🎉!")},
		{"wide char wraps early", 5, 2, []string{"abcd你"}, lines("abcd", "你")},
		{"half a wide char overwritten blanks the other", 6, 1, []string{"你好", "\x1b[1;2Hx\x1b[1;3Hy"}, " xy"},
		{"erase from the middle of a wide char", 6, 1, []string{"a你好", "\x1b[1;3H\x1b[K"}, "a"},
		{"erase up to the middle of a wide char", 6, 1, []string{"a你好x", "\x1b[1;4H\x1b[1K"}, "     x"},
		{"polish, cyrillic and combining", 12, 1, []string{"żółw ёж e\u0301"}, "żółw ёж e\u0301"},
		{"combining mark on a wide char", 6, 1, []string{"你\u0301x"}, "你\u0301x"},
		{"backspace and tab", 12, 1, []string{"ab\bX\tY"}, "aX      Y"},
		{"insert and delete lines", 3, 4,
			[]string{"1\r\n2\r\n3\r\n4", "\x1b[2;1H\x1b[L"}, lines("1", "", "2", "3")},
		{"delete line", 3, 3, []string{"1\r\n2\r\n3\x1b[1;1H\x1b[M"}, lines("2", "3", "")},
		{"insert and delete chars", 6, 1, []string{"abcdef\x1b[1;2H\x1b[2P\x1b[1@"}, "a def"},
		{"erase chars", 6, 1, []string{"abcdef\x1b[1;2H\x1b[3X"}, "a   ef"},
		{"alt screen then back", 5, 2,
			[]string{"main", "\x1b[?1049h\x1b[Halt", "\x1b[?1049l"}, lines("main", "")},
		{"alt screen shows alt", 5, 2, []string{"main\x1b[?1049h\x1b[2J\x1b[Halt"}, lines("alt", "")},
		{"alt screen is blank when entered again", 5, 2,
			[]string{"\x1b[?1049hold\x1b[?1049l\x1b[?1049h"}, lines("", "")},
		{"main screen blank after an alt screen entered over a blank one", 5, 2,
			[]string{"\x1b[?1049hold\x1b[?1049l"}, lines("", "")},
		{"alt screen entered twice over a written main screen", 5, 2,
			[]string{"main\x1b[?1049hold\x1b[?1049l\x1b[?1049hnew\x1b[?1049l"}, lines("main", "")},
		{"osc title ignored", 10, 1, []string{"\x1b]2;title\x07ok"}, "ok"},
		{"osc ended by ST, dcs skipped", 10, 1, []string{"\x1b]2;t\x1b\\a\x1bPq#0\x1b\\b"}, "ab"},
		{"charset designation ignored", 10, 1, []string{"\x1b(Ba\x1b)0b"}, "ab"},
		{"intermediates change nothing", 10, 1, []string{"ab\x1b[2 qc\x1b[!pd"}, "abcd"},
		{"controls inside a sequence", 10, 2, []string{"ab\x1b[1\r;2Hc"}, lines("ac", "")},
		{"sequence split across writes", 10, 1, []string{"a\x1b", "[3", "1mb\xc5", "\xbc"}, "abż"},
		{"broken utf-8 dropped", 10, 1, []string{"a\xc5b\x80c"}, "abc"},
		{"save and restore cursor", 5, 2, []string{"ab\x1b7\r\ncd\x1b8X"}, lines("abX", "cd")},
		{"save and restore cursor (CSI)", 5, 2, []string{"ab\x1b[s\r\ncd\x1b[uX"}, lines("abX", "cd")},
		{"scroll region", 3, 4,
			[]string{"1\r\n2\r\n3\r\n4", "\x1b[2;3r\x1b[3;1H\r\nX\x1b[r"}, lines("1", "3", "X", "4")},
		{"scroll up and down", 3, 3, []string{"1\r\n2\r\n3\x1b[S", "\x1b[2T"}, lines("", "", "2")},
		{"reverse index at the top", 3, 2, []string{"1\r\n2\x1b[H\x1bM"}, lines("", "1")},
		{"reset", 5, 2, []string{"abc\r\nd\x1bcx"}, lines("x", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := screenOf(t, tt.w, tt.h, tt.chunks...)
			if got != tt.want {
				t.Errorf("screen:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestAnswersQueries(t *testing.T) {
	tm, _ := screenOf(t, 10, 5, "ab\r\ncd", "\x1b[6n", "\x1b]11;?\x07", "\x1b]10;?\x1b\\", "\x1b[c", "\x1b[>c", "\x1b[?6n")
	want := "\x1b[2;3R" + "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b]10;rgb:ffff/ffff/ffff\x1b\\" + "\x1b[?62;22c"
	if got := string(tm.TakeReplies()); got != want {
		t.Errorf("replies %q, want %q", got, want)
	}
	if got := tm.TakeReplies(); len(got) != 0 {
		t.Errorf("replies taken twice: %q", got)
	}
	// On the alternate screen, a position is the alternate screen's.
	tm, _ = screenOf(t, 10, 3, "\x1b[?1049hab\x1b[2;3Hxy\x1b[6n\x1b]11;?\x07\r\nzz\x1b[1;1H\x1b[K")
	if got, want := tm.Screen(), "\n  xy\nzz"; got != want {
		t.Errorf("screen %q, want %q", got, want)
	}
	if got, want := string(tm.TakeReplies()), "\x1b[2;5R\x1b]11;rgb:0000/0000/0000\x1b\\"; got != want {
		t.Errorf("replies %q, want %q", got, want)
	}
}

func TestText(t *testing.T) {
	tm, _ := screenOf(t, 20, 3, "\x1b[31mhello\x1b[0m\r\n\x1b[2;5Hworld\x1b[1;1Hagain")
	if got := string(tm.Text()); got != "hello\nworld\nagain" {
		t.Errorf("text %q", got)
	}
	quiet := New(20, 3)
	quiet.Write([]byte("hello\r\nworld"))
	if len(quiet.Text()) != 0 {
		t.Errorf("text kept without RecordText: %q", quiet.Text())
	}
}

func TestResize(t *testing.T) {
	tm, _ := screenOf(t, 5, 2, "abcde\r\nfg")
	tm.Resize(3, 3)
	if got := tm.Screen(); got != lines("abc", "fg", "") {
		t.Errorf("after resize:\n%s", got)
	}
	tm.Write([]byte("\x1b[3;3HZ"))
	if got := tm.Screen(); got != lines("abc", "fg", "  Z") {
		t.Errorf("after resize and write:\n%s", got)
	}
	// Resized on an alternate screen that borrowed the blank main one.
	tm, _ = screenOf(t, 5, 2, "\x1b[?1049halt")
	tm.Resize(6, 3)
	if got := tm.Screen(); got != lines("alt", "", "") {
		t.Errorf("alt screen after resize:\n%s", got)
	}
	tm.Write([]byte("\x1b[?1049lx\x1b[3;6Hy"))
	if got := tm.Screen(); got != lines("x", "", "     y") {
		t.Errorf("main screen after resize:\n%s", got)
	}
}

// Two streams onto one screen (stdout and stderr) each keep their own
// half-read sequence.
func TestTwoStreams(t *testing.T) {
	tm := New(10, 2)
	var stderr Parser
	tm.Write([]byte("a\x1b[3"))
	stderr.Write(tm, []byte("\x1b[2;1Herr\xd0"))
	tm.Write([]byte("1mb"))
	stderr.Write(tm, []byte("\xb6"))
	if got, want := tm.Screen(), lines("a", "errbж"); got != want {
		t.Errorf("screen %q, want %q", got, want)
	}
}

func TestWidthAgreesWithANSI(t *testing.T) {
	for r := rune(0x20); r < 0xd800; r++ {
		if r >= 0x7f && r < 0xa0 {
			continue
		}
		if got, want := width(r), ansiWidth(r); got != want {
			t.Errorf("width(%U) = %d, x/ansi says %d", r, got, want)
		}
	}
}
