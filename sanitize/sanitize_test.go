package sanitize

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"plain", "hello world", 80, "hello world"},
		{"polish", "Zażółć gęślą jaźń", 80, "Zażółć gęślą jaźń"},
		{"russian", "Братья по оружию", 80, "Братья по оружию"},
		{"cjk", "你好，世界", 80, "你好，世界"},
		{"emoji", "gg 🎉👍🏽", 80, "gg 🎉👍🏽"},
		{"emoji variation selector kept", "❤️", 80, "❤️"},
		{"arabic text, no isolate", "مرحبا\u061c", 80, "مرحبا"},
		{"csi colour", "\x1b[31mred\x1b[0m text", 80, "red text"},
		{"csi cursor moves", "a\x1b[2J\x1b[H\x1b[10;20Hb", 80, "ab"},
		{"csi private mode", "x\x1b[?1049hy", 80, "xy"},
		{"osc title bel", "\x1b]0;pwned\x07ok", 80, "ok"},
		{"osc hyperlink st", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", 80, "link"},
		{"osc unterminated eats rest", "ok\x1b]0;title never ends", 80, "ok"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", 80, "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", 80, "ab"},
		{"two byte escapes", "a\x1b7b\x1b8c\x1bcd", 80, "abcd"},
		{"charset designation", "a\x1b(0b", 80, "ab"},
		{"lone esc at end", "abc\x1b", 80, "abc"},
		{"esc before utf8", "a\x1bżb", 80, "ażb"},
		{"c1 csi", "a\u009b31mb", 80, "ab"},
		{"c1 osc with c1 st", "a\u009d0;t\u009cb", 80, "ab"},
		{"c0 controls", "a\x00b\x07c\x08d\x7fe", 80, "abcde"},
		{"c1 controls", "a\u0080b\u0085c\u0081d", 80, "ab cd"},
		{"c1 apc eats the rest", "a\u009fbcd", 80, "a"},
		{"bidi overrides", "a\u202eevil\u202cb", 80, "aevilb"},
		{"bidi isolates and marks", "\u2066x\u2067y\u2068z\u2069\u200e\u200f", 80, "xyz"},
		{"zero width", "a\u200bb\u200cc\u200dd\u2060e\ufefff", 80, "abcdef"},
		{"invisible fillers", "a\u3164b\u115fc\u2800d", 80, "abcd"},
		{"whitespace collapses", "  a \t\n\r b\u00a0\u3000c  ", 80, "a b c"},
		{"line separator", "a\u2028b\u2029c", 80, "a b c"},
		{"invalid utf8", "a\xffb\xc3", 80, "ab"},
		{"cut at max", "abcdefghij", 5, "abcde"},
		{"cut counts runes", "żółwżółw", 3, "żół"},
		{"no trailing space at cut", "abc def", 4, "abc"},
		{"space then cut", "ab cd", 3, "ab"},
		{"zalgo capped", "a" + strings.Repeat("\u0301", 50) + "b", 80, "a" + strings.Repeat("\u0301", 4) + "b"},
		{"zero max", "abc", 0, ""},
		{"negative max", "abc", -1, ""},
		{"huge max", "a\x1b[1mb", math.MaxInt, "ab"},
		{"empty", "", 10, ""},
		{"only controls", "\x1b[31m\x00\u200b \t", 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Line(tt.in, tt.max)
			if got != tt.want {
				t.Errorf("Line(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
			checkLine(t, tt.in, tt.max, got)
		})
	}
}

func TestLineBoundsWorkOnHugePaste(t *testing.T) {
	huge := strings.Repeat("ą\x1b[31m", 10<<20/8) // ~10 MB
	got := Line(huge, 200)
	if utf8.RuneCountInString(got) != 200 || strings.Trim(got, "ą") != "" {
		t.Errorf("got %d runes %.20q…", utf8.RuneCountInString(got), got)
	}
	allocs := testing.AllocsPerRun(10, func() { Line(huge, 200) })
	if allocs > 2 {
		t.Errorf("%v allocations per call", allocs)
	}
}

func TestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Alice", "Alice"},
		{"  Józef   Piłsudski ", "Józef Piłsudski"},
		{"Владимир", "Владимир"},
		{"小明", "小明"},
		{"O'Brien-Smith_2.0", "O'Brien-Smith_2.0"},
		{"e\u0301tienne", "étienne"}, // NFC
		{"\x1b[31mRed\x1b[0m", "Red"},
		{"Bob\u202e", "Bob"},
		{"abcdefghijklmnopqrst", "abcdefghijklmnopqrst"}, // 20
		{strings.Repeat("e\u0301", 20), strings.Repeat("é", 20)},
	}
	for _, tt := range tests {
		got, err := Name(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Name(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNameRejects(t *testing.T) {
	tests := []struct{ in, says string }{
		{"", "empty"},
		{"   ", "empty"},
		{"\u200b\u200b", "empty"},
		{"\x1b[2J", "empty"},
		{"abcdefghijklmnopqrstu", "longer than 20"}, // 21
		{strings.Repeat("ż", 10<<20), "longer than 20"},
		{"hi 🎉", "'🎉' is not allowed"},
		{"a<b>", "'<' is not allowed"},
		{"\u0301abc", "is not allowed"},
		{"a@b", "'@' is not allowed"},
	}
	for _, tt := range tests {
		got, err := Name(tt.in)
		if err == nil {
			t.Errorf("Name(%.30q) = %q, want an error", tt.in, got)
			continue
		}
		if says := i18n.For(i18n.English).Error(err); !errors.Is(err, ErrInvalidName) || !strings.HasPrefix(says, "name must be 1–20 letters") ||
			!strings.Contains(says, tt.says) {
			t.Errorf("Name(%.30q) error %q; want it to wrap ErrInvalidName and say %q", tt.in, err, tt.says)
		}
	}
}

// checkLine asserts the properties every output of Line has.
func checkLine(t *testing.T, in string, max int, got string) {
	t.Helper()
	if !utf8.ValidString(got) {
		t.Fatalf("Line(%q, %d) = %q: invalid UTF-8", in, max, got)
	}
	if n := utf8.RuneCountInString(got); n > max && !(max <= 0 && n == 0) {
		t.Fatalf("Line(%q, %d) = %q: %d runes", in, max, got, n)
	}
	if strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") || strings.Contains(got, "  ") {
		t.Fatalf("Line(%q, %d) = %q: stray spaces", in, max, got)
	}
	for _, r := range got {
		if forbidden(r) {
			t.Fatalf("Line(%q, %d) = %q: contains %U", in, max, got, r)
		}
	}
	if again := Line(got, max); again != got {
		t.Fatalf("not idempotent: Line(%q) = %q, again %q", in, got, again)
	}
}

func forbidden(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f, unicode.IsControl(r):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff:
		return true
	case unicode.Is(unicode.Cf, r), r != ' ' && unicode.IsSpace(r):
		return true
	}
	return false
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{
		"hello", "Zażółć\x1b[31m gęślą", "\x1b]0;x\x07", "\u202eabc", "a\u200bb", "\u009b31m",
		"\x1bP\x1b\\", "  \t ", "e\u0301\u0301\u0301\u0301\u0301\u0301", "\xff\xfe", "你好 🎉",
	} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 300
		checkLine(t, s, max, Line(s, max))
	})
}

func FuzzName(f *testing.F) {
	for _, s := range []string{"Alice", " Józef ", "\x1b[31mx", "a\u0301", "🎉", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Name(s)
		if err != nil {
			if got != "" || !errors.Is(err, ErrInvalidName) {
				t.Fatalf("Name(%q) = %q, %v", s, got, err)
			}
			return
		}
		n := utf8.RuneCountInString(got)
		if n < 1 || n > MaxNameRunes || got != strings.TrimSpace(got) || !utf8.ValidString(got) {
			t.Fatalf("Name(%q) = %q", s, got)
		}
		for _, r := range got {
			if forbidden(r) {
				t.Fatalf("Name(%q) = %q contains %U", s, got, r)
			}
		}
		if again, err := Name(got); err != nil || again != got {
			t.Fatalf("Name not stable: %q → %q → %q, %v", s, got, again, err)
		}
	})
}

// A campaign's name follows a player's name's rules, and its refusal
// speaks of a campaign's name: Polish and Russian call it by another word
// than a person's name ("nazwa", "название", not "imię", "имя").
func TestCampaignNameSpeaksOfACampaign(t *testing.T) {
	if got, err := CampaignName("  Verdun 1916 "); err != nil || got != "Verdun 1916" {
		t.Fatalf("CampaignName = %q, %v", got, err)
	}
	for lang, want := range map[i18n.Lang]string{i18n.Polish: "nazwa kampanii", i18n.Russian: "название кампании", i18n.English: "a campaign's name"} {
		_, err := CampaignName("")
		if says := i18n.For(lang).Error(err); !errors.Is(err, ErrInvalidName) || !strings.HasPrefix(says, want) {
			t.Errorf("%s: %q, want it to begin %q", lang, says, want)
		}
	}
}
