package i18n

import (
	"strings"
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

func TestMessagesRender(t *testing.T) {
	en := For(English)
	m := game.M("grizzled.dealt", game.List("Hands",
		game.M("grizzled.dealt_one", game.Text("Player", "Ann"), game.Count(3)),
		game.M("grizzled.dealt_one", game.Text("Player", "Бора"), game.Count(1))), game.Count(1))
	if got, want := en.Msg(m), "Dealt: Ann 3 and Бора 1. 1 card left in the trials pile."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := en.T("no.such.key"); got != "no.such.key" {
		t.Errorf("a missing key renders %q", got)
	}
	if got := en.Msg(game.Raw("as stored")); got != "as stored" {
		t.Errorf("raw renders %q", got)
	}
	if got := en.Error(game.Refuse(game.ErrBadAction, game.M("grizzled.err.no_threat", game.Num("N", 9)))); got != "there is no threat number 9" {
		t.Errorf("refusal renders %q", got)
	}
	if got := en.Msg(game.M("grizzled.card.threat", game.Text("Code", "T04"), game.Joined("Threats", "+", game.M("grizzled.threat.night"), game.M("grizzled.threat.shell")))); got != "T04 Night+Shell" {
		t.Errorf("joined renders %q", got)
	}
}

// TestEventSaysItsWords: a narration in the printer's language, a chat
// line as typed.
func TestEventSaysItsWords(t *testing.T) {
	e := &game.Event{Msg: game.M("grizzled.turn_of", game.Text("Player", "Ann"))}
	if got, want := For(English).Event(e), For(English).Msg(e.Msg); got != want || got == "" {
		t.Errorf("narration: %q, want %q", got, want)
	}
	if got, want := For(German).Event(e), For(German).Msg(e.Msg); got != want || got == For(English).Event(e) {
		t.Errorf("narration in German: %q, want %q", got, want)
	}
	if got := For(Polish).Event(&game.Event{Kind: game.Chat, Text: "hi"}); got != "hi" {
		t.Errorf("chat: %q", got)
	}
}

func BenchmarkRenderEvent(b *testing.B) {
	p := For(English)
	m := game.M("grizzled.put.play_threat", game.Text("Player", "Ann"), game.Sub("Card", game.M("grizzled.card.threat",
		game.Text("Code", "T04"), game.Joined("Threats", "+", game.M("grizzled.threat.night"), game.M("grizzled.threat.shell")))))
	b.ReportAllocs()
	for b.Loop() {
		p.Msg(m)
	}
}

// TestPluralsFollowEachLanguage: CLDR's forms, as the catalogs spell them.
func TestPluralsFollowEachLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang Lang
		want map[int]string
	}{
		{English, map[int]string{1: "1 card", 2: "2 cards", 5: "5 cards", 21: "21 cards"}},
		{Polish, map[int]string{1: "1 karta", 2: "2 karty", 4: "4 karty", 5: "5 kart", 12: "12 kart", 22: "22 karty", 25: "25 kart"}},
		{Russian, map[int]string{1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта", 22: "22 карты", 1234: "1234 карты"}},
		{German, map[int]string{1: "1 Karte", 2: "2 Karten", 5: "5 Karten"}},
	} {
		for n, want := range tt.want {
			if got := For(tt.lang).T("grizzledui.n_cards", game.Count(n)); got != want {
				t.Errorf("%s %d: %q, want %q", tt.lang, n, got, want)
			}
		}
	}
}

// TestOneEventReadsInEveryLanguage: the same event, rendered for four
// readers, names the same card and player in each one's words.
func TestOneEventReadsInEveryLanguage(t *testing.T) {
	m := game.M("grizzled.put.play_threat", game.Text("Player", "Оля"), game.Sub("Card", game.M("grizzled.card.threat",
		game.Text("Code", "T04"), game.Joined("Threats", "+", game.M("grizzled.threat.night"), game.M("grizzled.threat.shell")))))
	for l, want := range map[Lang]string{
		English: "Оля plays T04 Night+Shell into No Man's Land.",
		Polish:  "T04 Noc+Pocisk",
		Russian: "T04 Ночь+Снаряд",
		German:  "Оля spielt T04 Nacht+Granate ins Niemandsland.",
	} {
		if got := For(l).Msg(m); !strings.Contains(got, want) || !strings.Contains(got, "Оля") {
			t.Errorf("%s: %q, want it to hold %q", l, got, want)
		}
	}
}

// A bot's name is marked in the reader's language, wherever it stands: in
// a message's arguments as in a list of seats (Printer.Name).
func TestBotNamesAreMarkedInTheReadersLanguage(t *testing.T) {
	msg := game.M("werewolf.bot.suspect", game.Text("Player", "Ewa"+game.BotMark))
	for l, want := range map[Lang][2]string{
		English: {"Ewa (bot)", "I suspect Ewa (bot)."},
		Polish:  {"Ewa (bot)", "Podejrzewam gracza Ewa (bot)."},
		Russian: {"Ewa (бот)", "Я подозреваю игрока Ewa (бот)."},
		German:  {"Ewa (Bot)", "Ich verdächtige Ewa (Bot)."},
	} {
		p := For(l)
		if got := p.Name("Ewa" + game.BotMark); got != want[0] {
			t.Errorf("%s: Name = %q, want %q", l, got, want[0])
		}
		if got := p.Msg(msg); got != want[1] {
			t.Errorf("%s: %q, want %q", l, got, want[1])
		}
		if got := p.Name("Anna"); got != "Anna" {
			t.Errorf("%s: a player's name became %q", l, got)
		}
	}
}
