package i18n

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

func TestParseReadsLocalesAndTagsItSpeaks(t *testing.T) {
	for in, want := range map[string]Lang{
		"pl_PL.UTF-8": Polish, "pl": Polish, "PL_pl": Polish, "ru_RU.KOI8-R": Russian, "de_DE@euro": German,
		"de-AT": German, "en_US.UTF-8": English, "de": German,
	} {
		if got, ok := Parse(in); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "C", "POSIX", "C.UTF-8", "fr_FR.UTF-8", "x", "polski", "\x00pl", "../../etc", "plpl_PL", "p l"} {
		if got, ok := Parse(in); ok || got != English {
			t.Errorf("Parse(%q) = %q, %v; want English, not spoken", in, got, ok)
		}
	}
}

func TestFromEnvFollowsPOSIXOrderAndPassesOverUnknownLanguages(t *testing.T) {
	for _, tt := range []struct {
		env  []string
		want Lang
		ok   bool
	}{
		{[]string{"LANG=pl_PL.UTF-8"}, Polish, true},
		{[]string{"LANG=pl_PL.UTF-8", "LC_MESSAGES=de_DE.UTF-8"}, German, true},
		{[]string{"LANG=pl_PL.UTF-8", "LC_MESSAGES=de_DE.UTF-8", "LC_ALL=ru_RU.UTF-8"}, Russian, true},
		{[]string{"LC_ALL=C", "LANG=de_DE.UTF-8"}, German, true}, // C names no language: passed over
		{[]string{"LC_ALL=fr_FR.UTF-8"}, English, false},
		{[]string{"LC_CTYPE=pl_PL.UTF-8"}, English, false}, // not about messages
		{[]string{"TERM=xterm", "LANG="}, English, false},
		{nil, English, false},
	} {
		if got, ok := FromEnv(tt.env); got != tt.want || ok != tt.ok {
			t.Errorf("FromEnv(%q) = %q, %v; want %q, %v", tt.env, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNextCyclesEveryLanguage(t *testing.T) {
	l, seen := English, map[Lang]bool{}
	for range Langs {
		seen[l] = true
		l = l.Next()
	}
	if l != English || len(seen) != len(Langs) {
		t.Fatalf("Next cycles %v", seen)
	}
	if For("xx").Lang() != English {
		t.Error("an unknown language does not print English")
	}
}

// A key no catalog has renders as itself; raw text as it was stored.
func TestMissingKeysAndRawTextRender(t *testing.T) {
	en := For(English)
	if got := en.T("no.such.key"); got != "no.such.key" {
		t.Errorf("a missing key renders %q", got)
	}
	if got := en.Msg(game.Raw("as stored")); got != "as stored" {
		t.Errorf("raw renders %q", got)
	}
	if got := For(Polish).Event(&game.Event{Kind: game.Chat, Text: "hi"}); got != "hi" {
		t.Errorf("chat: %q", got)
	}
}
