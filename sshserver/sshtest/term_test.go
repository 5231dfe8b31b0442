package sshtest

import (
	"strings"
	"testing"
)

func screenOf(t *testing.T, w, h int, chunks ...string) (*term, string) {
	t.Helper()
	tm := newTerm(w, h)
	p := &parser{}
	for _, c := range chunks {
		p.write(tm, []byte(c))
	}
	return tm, tm.screen()
}

func lines(s ...string) string { return strings.Join(s, "\n") }

func TestTermScreens(t *testing.T) {
	tests := []struct {
		name   string
		w, h   int
		chunks []string
		want   string
	}{
		{"plain lines", 10, 3, []string{"hello\r\nworld"}, lines("hello", "world", "")},
		{"colours ignored", 10, 2, []string{"\x1b[1;38;5;196mred\x1b[0m ok"}, lines("red ok", "")},
		{"cursor position and erase line", 10, 3,
			[]string{"aaaaaaaaaa\r\nbbbbbbbbbb\r\ncccccccccc", "\x1b[2;3H\x1b[KX"},
			lines("aaaaaaaaaa", "bbX", "cccccccccc")},
		{"erase screen", 5, 2, []string{"abc\r\ndef\x1b[2J\x1b[Hz"}, lines("z", "")},
		{"erase below", 5, 3, []string{"aaaaa\r\nbbbbb\r\nccccc\x1b[2;2H\x1b[J"}, lines("aaaaa", "b", "")},
		{"cursor up and redraw (bubbletea repaint)", 10, 3,
			[]string{"one\r\ntwo\r\nthree", "\r\x1b[2A\x1b[2KONE\r\n\x1b[2KTWO\x1b[K"},
			lines("ONE", "TWO", "three")},
		{"pending wrap: full line then CRLF", 5, 3, []string{"abcde\r\nfghij\r\nk"}, lines("abcde", "fghij", "k")},
		{"autowrap", 5, 3, []string{"abcdefg"}, lines("abcde", "fg", "")},
		{"scroll at bottom", 5, 2, []string{"a\r\nb\r\nc"}, lines("b", "c")},
		{"wide chars", 6, 2, []string{"你好x\r\n🎉!"}, lines("你好x", "🎉!")},
		{"wide char wraps early", 5, 2, []string{"abcd你"}, lines("abcd", "你")},
		{"polish and combining", 10, 1, []string{"żółw e\u0301"}, "żółw e\u0301"},
		{"backspace and tab", 12, 1, []string{"ab\bX\tY"}, "aX      Y"},
		{"insert and delete lines", 3, 4,
			[]string{"1\r\n2\r\n3\r\n4", "\x1b[2;1H\x1b[L"}, lines("1", "", "2", "3")},
		{"delete line", 3, 3, []string{"1\r\n2\r\n3\x1b[1;1H\x1b[M"}, lines("2", "3", "")},
		{"insert and delete chars", 6, 1, []string{"abcdef\x1b[1;2H\x1b[2P\x1b[1@"}, "a def"},
		{"alt screen then back", 5, 2,
			[]string{"main", "\x1b[?1049h\x1b[Halt", "\x1b[?1049l"}, lines("main", "")},
		{"alt screen shows alt", 5, 2, []string{"main\x1b[?1049h\x1b[2J\x1b[Halt"}, lines("alt", "")},
		{"osc title ignored", 10, 1, []string{"\x1b]2;title\x07ok"}, "ok"},
		{"sequence split across writes", 10, 1, []string{"a\x1b", "[3", "1mb\xc5", "\xbc"}, "abż"},
		{"save and restore cursor", 5, 2, []string{"ab\x1b7\r\ncd\x1b8X"}, lines("abX", "cd")},
		{"scroll region", 3, 4,
			[]string{"1\r\n2\r\n3\r\n4", "\x1b[2;3r\x1b[3;1H\r\nX\x1b[r"}, lines("1", "3", "X", "4")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := screenOf(t, tt.w, tt.h, tt.chunks...)
			if got != tt.want {
				t.Errorf("screen:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestTermAnswersQueries(t *testing.T) {
	tm, _ := screenOf(t, 10, 5, "ab\r\ncd", "\x1b[6n", "\x1b]11;?\x07", "\x1b[c", "\x1b[>c")
	want := "\x1b[2;3R" + "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b[?62;22c"
	if string(tm.replies) != want {
		t.Errorf("replies %q, want %q", tm.replies, want)
	}
}

func TestTermText(t *testing.T) {
	tm, _ := screenOf(t, 20, 3, "\x1b[31mhello\x1b[0m\r\n\x1b[2;5Hworld\x1b[1;1Hagain")
	if got := string(tm.text); got != "hello\nworld\nagain" {
		t.Errorf("text %q", got)
	}
}

func TestTermResize(t *testing.T) {
	tm, _ := screenOf(t, 5, 2, "abcde\r\nfg")
	tm.resize(3, 3)
	if got := tm.screen(); got != lines("abc", "fg", "") {
		t.Errorf("after resize:\n%s", got)
	}
	p := &parser{}
	p.write(tm, []byte("\x1b[3;3HZ"))
	if got := tm.screen(); got != lines("abc", "fg", "  Z") {
		t.Errorf("after resize and write:\n%s", got)
	}
}
