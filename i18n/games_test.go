package i18n_test

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// TestEveryMessageOfRandomGamesRenders plays random games of every
// registered game, each on a table its form could make (every field
// chosen at random), and renders in every language every message the
// games said: each event, the summary, and every message in a seat's
// view (a turn's "why not", a prompt, a narration, the night log). Each
// must come out as words, not as a key, a placeholder or a template's
// "<no value>".
func TestEveryMessageOfRandomGamesRenders(t *testing.T) {
	keyLeft := regexp.MustCompile(`\b(` + strings.Join(namespaces(t), "|") + `)\.[a-z_]+\b`)
	for _, m := range games.Catalog() {
		var msgs []game.Msg
		for seed := range uint64(6) {
			setup, ok := randomSetup(m, seed)
			if !ok {
				t.Fatalf("%s: no table its form makes", m.Game.ID())
			}
			msgs = append(msgs, playRandomly(t, m.Game, setup, seed)...)
		}
		keys := map[string]bool{}
		for _, msg := range msgs {
			keys[msg.Key] = true
		}
		t.Logf("%s: %d messages, %d keys", m.Game.ID(), len(msgs), len(keys))
		for _, l := range i18n.Langs {
			p := i18n.For(l)
			for _, msg := range msgs {
				got := p.Msg(msg)
				if got == "" || got == msg.Key || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") || keyLeft.MatchString(got) {
					t.Fatalf("%s, %s: %v renders %q", m.Game.ID(), l, msg, got)
				}
			}
		}
	}
}

// randomSetup is a table of game m its form makes with each field chosen
// at random (seed picks them), tried until one builds.
func randomSetup(m uikit.Module, seed uint64) (game.Setup, bool) {
	r := rand.New(rand.NewPCG(seed, 2))
	fields := m.FormFields()
	for range 200 {
		choice := make([]int, len(fields))
		for i, f := range fields {
			choice[i] = r.IntN(len(f.Choices))
		}
		if i := m.StdField(uikit.BotSeats); i >= 0 {
			choice[i] = 0 // random moves for every seat
		}
		spec, err := m.BuildTable(choice)
		if err != nil {
			continue
		}
		names := make([]string, spec.Seats)
		for i := range names {
			names[i] = string(rune('A'+i)) + "na"
		}
		return game.Setup{Game: m.Game.ID(), Names: names, Options: spec.GameOptions}, true
	}
	return game.Setup{}, false
}

// playRandomly plays g from setup with random legal moves (and its
// timers now and then) to its end, and returns every message it said.
func playRandomly(t *testing.T, g game.Game, setup game.Setup, seed uint64) []game.Msg {
	var msgs []game.Msg
	add := func(ms ...game.Msg) {
		for _, m := range ms {
			if !m.IsZero() {
				msgs = append(msgs, m)
			}
		}
	}
	r := rand.New(rand.NewPCG(seed, 1))
	s, evs, err := g.New(setup, seed)
	if err != nil {
		t.Fatalf("%s: %v", setup.Game, err)
	}
	for range 5000 {
		for _, e := range evs {
			add(e.Msg)
		}
		if res, over := g.Result(s); over {
			add(res.Summary)
			return msgs
		}
		for seat := range setup.Names {
			add(msgsIn(reflect.ValueOf(g.View(s, game.Seat(seat))))...)
		}
		var seat game.Seat
		var a game.Action
		tm, timed := g.Timer(s)
		if w := g.Waiting(s); len(w) > 0 && (!timed || r.IntN(6) > 0) {
			seat = w[r.IntN(len(w))]
			legal := g.Legal(s, seat)
			if len(legal) == 0 {
				continue
			}
			a = legal[r.IntN(len(legal))]
		} else if timed {
			seat, a = game.System, tm.Action
		} else {
			t.Fatalf("%s: stuck", setup.Game)
		}
		if s, evs, err = g.Apply(s, seat, a); err != nil {
			t.Fatal(err)
		}
	}
	return msgs
}

var msgType = reflect.TypeFor[game.Msg]()

// msgsIn are the messages held anywhere in v (a view): in its fields,
// slices, maps and pointers.
func msgsIn(v reflect.Value) []game.Msg {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return msgsIn(v.Elem())
	case reflect.Struct:
		if v.Type() == msgType {
			if m := v.Interface().(game.Msg); !m.IsZero() {
				return []game.Msg{m}
			}
			return nil
		}
		var out []game.Msg
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = append(out, msgsIn(v.Field(i))...)
			}
		}
		return out
	case reflect.Slice, reflect.Array:
		var out []game.Msg
		for i := range v.Len() {
			out = append(out, msgsIn(v.Index(i))...)
		}
		return out
	case reflect.Map:
		var out []game.Msg
		for it := v.MapRange(); it.Next(); {
			out = append(out, msgsIn(it.Value())...)
		}
		return out
	}
	return nil
}
