package werewolf

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// A bot's line is a catalog message, not words: each viewer reads it in
// their own language, in every channel, and the little girl's glimpse of a
// wolf's line hides the wolves' names in it as it does in typed words.
func TestBotLinesAreMessagesReadInEachLanguage(t *testing.T) {
	names := []string{"Wolfa", "Wolfb", "Lily", "Anna", "Bob", "Cyd", "Dee", "Eve"}
	x := dealNamed(t, "W W L V V V V V", names, func(o *Options) { o.LittleGirlRelay, o.LittleGirlCatch = 1, 0 })
	var g Game
	x.until(PhaseWolves)
	x.do(P3, Action{Kind: KindPeek, On: true})

	// A wolf's line in the wolves' step is a move (the girl may catch it).
	eat := game.M(BotLinePrefix+"eat", game.Text("Player", "Anna"))
	a, evs, err := g.BotLine(x.s, P1, eat)
	if err != nil || len(evs) == 0 || !evs[0].Msg.Equal(eat) {
		t.Fatalf("BotLine by a wolf at night: %v %v", evs, err)
	}
	act, ok := a.(Action)
	if !ok || act.Kind != KindSay || act.Line == nil || !act.Line.Equal(eat) {
		t.Fatalf("BotLine by a wolf at night gave %v", a)
	}
	evs = x.do(P1, act)
	var pack, relay *game.Event
	for i, e := range evs {
		switch e.Channel {
		case ChannelWolves:
			pack = &evs[i]
		case ChannelRelay:
			relay = &evs[i]
		}
	}
	if pack == nil || pack.Text != "" || !pack.Msg.Equal(eat) {
		t.Fatalf("the pack's event is %+v, want the message %v", pack, eat)
	}
	if n := len(x.s.Pack); n == 0 || !x.s.Pack[n-1].Line.Equal(eat) {
		t.Fatalf("the pack's channel keeps %+v", x.s.Pack)
	}
	ru := i18n.For(i18n.Russian)
	if got, want := ru.Event(pack), "Давайте съедим игрока Anna."; got != want {
		t.Fatalf("a wolf reads %q in Russian, want %q", got, want)
	}
	if relay == nil || !strings.Contains(ru.Event(relay), "Anna") {
		t.Fatalf("relay %+v", relay)
	}
	mark := game.M(BotLinePrefix+"eat", game.Text("Player", "Wolfb"))
	a, _, _ = g.BotLine(x.s, P1, mark)
	evs = x.do(P1, a.(Action))
	for _, e := range evs {
		if e.Channel == ChannelRelay && strings.Contains(i18n.For(i18n.English).Event(&e), "Wolfb") {
			t.Fatalf("the girl glimpses a wolf's name: %q", i18n.For(i18n.English).Event(&e))
		}
	}

	// By day a line goes through Say's rules: events, no move.
	x.until(PhaseDiscussion)
	quiet := game.M(BotLinePrefix+"quiet", game.Text("Player", "Bob"))
	a, evs, err = g.BotLine(x.s, P5, quiet)
	if err != nil || a != nil || len(evs) != 1 || evs[0].Kind != game.Chat || evs[0].Channel != ChannelTable || !evs[0].Audience.All {
		t.Fatalf("a day line: %v %+v %v", a, evs, err)
	}
	for l, want := range map[i18n.Lang]string{i18n.English: "Bob is keeping very quiet…", i18n.Polish: "Bob podejrzanie mało mówi…",
		i18n.Russian: "Bob подозрительно молчит…", i18n.German: "Bob ist auffällig still…"} {
		if got := i18n.For(l).Event(&evs[0]); got != want {
			t.Errorf("%s reads %q, want %q", l, got, want)
		}
	}

	// The log may make a bot say only a bot's line.
	for _, bad := range []game.Msg{game.M("werewolf.end.abandoned"), game.M(BotLinePrefix+"eat", game.Num("Player", 3)), {}} {
		if _, _, err := g.BotLine(x.s, P5, bad); !errors.Is(err, game.ErrBadAction) {
			t.Errorf("BotLine(%v) = %v, want ErrBadAction", bad, err)
		}
		line := bad
		x.fail(P5, Action{Kind: KindSay, Line: &line}, game.ErrBadAction)
	}
	if !slices.ContainsFunc(x.all, func(e game.Event) bool { return e.Msg.Equal(eat) }) {
		t.Fatal("the wolf's line is not in the game's events")
	}
}
