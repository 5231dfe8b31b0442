package catalog_test

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	_ "github.com/bivouac-ssh/bivouac/games/grizzled/catalog"
	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestMessagesRender(t *testing.T) {
	en := i18n.For(i18n.English)
	m := game.M("grizzled.dealt", game.List("Hands",
		game.M("grizzled.dealt_one", game.Text("Player", "Ann"), game.Count(3)),
		game.M("grizzled.dealt_one", game.Text("Player", "Бора"), game.Count(1))), game.Count(1))
	if got, want := en.Msg(m), "Dealt: Ann 3 and Бора 1. 1 card left in the trials pile."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := en.Error(game.Refuse(game.ErrBadAction, game.M("grizzled.err.no_threat", game.Num("N", 9)))); got != "there is no threat number 9" {
		t.Errorf("refusal renders %q", got)
	}
	if got := en.Msg(game.M("grizzled.card.threat", game.Text("Code", "T04"), game.Joined("Threats", "+", game.M("grizzled.threat.night"), game.M("grizzled.threat.shell")))); got != "T04 Night+Shell" {
		t.Errorf("joined renders %q", got)
	}
}

func TestEventSaysItsWords(t *testing.T) {
	e := &game.Event{Msg: game.M("grizzled.turn_of", game.Text("Player", "Ann"))}
	if got, want := i18n.For(i18n.English).Event(e), i18n.For(i18n.English).Msg(e.Msg); got != want || got == "" {
		t.Errorf("narration: %q, want %q", got, want)
	}
	if got, want := i18n.For(i18n.German).Event(e), i18n.For(i18n.German).Msg(e.Msg); got != want || got == i18n.For(i18n.English).Event(e) {
		t.Errorf("narration in i18n.German: %q, want %q", got, want)
	}
}

func BenchmarkRenderEvent(b *testing.B) {
	p := i18n.For(i18n.English)
	m := game.M("grizzled.put.play_threat", game.Text("Player", "Ann"), game.Sub("Card", game.M("grizzled.card.threat",
		game.Text("Code", "T04"), game.Joined("Threats", "+", game.M("grizzled.threat.night"), game.M("grizzled.threat.shell")))))
	b.ReportAllocs()
	for b.Loop() {
		p.Msg(m)
	}
}

func TestPluralsFollowEachLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang i18n.Lang
		want map[int]string
	}{
		{i18n.English, map[int]string{1: "1 card", 2: "2 cards", 5: "5 cards", 21: "21 cards"}},
		{i18n.Polish, map[int]string{1: "1 karta", 2: "2 karty", 4: "4 karty", 5: "5 kart", 12: "12 kart", 22: "22 karty", 25: "25 kart"}},
		{i18n.Russian, map[int]string{1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта", 22: "22 карты", 1234: "1234 карты"}},
		{i18n.German, map[int]string{1: "1 Karte", 2: "2 Karten", 5: "5 Karten"}},
	} {
		for n, want := range tt.want {
			if got := i18n.For(tt.lang).T("grizzledui.n_cards", game.Count(n)); got != want {
				t.Errorf("%s %d: %q, want %q", tt.lang, n, got, want)
			}
		}
	}
}

func TestOneEventReadsInEveryLanguage(t *testing.T) {
	m := game.M("grizzled.put.play_threat", game.Text("Player", "Оля"), game.Sub("Card", game.M("grizzled.card.threat",
		game.Text("Code", "T04"), game.Joined("Threats", "+", game.M("grizzled.threat.night"), game.M("grizzled.threat.shell")))))
	for l, want := range map[i18n.Lang]string{
		i18n.English: "Оля plays T04 Night+Shell into No Man's Land.",
		i18n.Polish:  "T04 Noc+Pocisk",
		i18n.Russian: "T04 Ночь+Снаряд",
		i18n.German:  "Оля spielt T04 Nacht+Granate ins Niemandsland.",
	} {
		if got := i18n.For(l).Msg(m); !strings.Contains(got, want) || !strings.Contains(got, "Оля") {
			t.Errorf("%s: %q, want it to hold %q", l, got, want)
		}
	}
}
