package i18n_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// TestEveryMessageOfRandomGamesRenders plays random games of both games
// and renders, in every language, every event, refusal-free view message
// (a turn's "why not", a prompt, a narration, an action's label, the night
// log, the summary): each must come out as words, not as a key, a
// placeholder or a template's "<no value>".
func TestEveryMessageOfRandomGamesRenders(t *testing.T) {
	var msgs []game.Msg
	add := func(ms ...game.Msg) {
		for _, m := range ms {
			if !m.IsZero() {
				msgs = append(msgs, m)
			}
		}
	}
	play := func(g game.Game, setup game.Setup, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 1))
		s, evs, err := g.New(setup, seed)
		if err != nil {
			t.Fatal(err)
		}
		for range 5000 {
			for _, e := range evs {
				add(e.Msg)
			}
			if res, over := g.Result(s); over {
				add(res.Summary)
				return
			}
			for seat := range setup.Names {
				switch v := g.View(s, game.Seat(seat)).(type) {
				case grizzled.SeatView:
					add(v.WhyNoWithdraw)
				case werewolf.SeatView:
					add(v.Prompt, v.Narration, v.Summary)
					add(v.History...)
					add(v.Relayed...)
					for _, a := range v.Legal {
						add(v.Describe(a))
					}
				}
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
				t.Fatal("stuck")
			}
			if s, evs, err = g.Apply(s, seat, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('A'+i)) + "na"
		}
		return out
	}
	for seed := range uint64(6) {
		opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
		play(grizzled.Game{}, game.Setup{Game: "grizzled", Names: names(2 + int(seed)%4), Options: opts}, seed)
		ww := werewolf.ClassicOptions()
		if seed%2 == 0 {
			ww = werewolf.DefaultOptions()
		}
		play(werewolf.Game{}, game.Setup{Game: werewolf.ID, Names: names(8 + int(seed)), Options: ww.Encode()}, seed)
	}
	keys := map[string]bool{}
	for _, m := range msgs {
		keys[m.Key] = true
	}
	t.Logf("%d messages, %d keys", len(msgs), len(keys))
	for _, l := range i18n.Langs {
		p := i18n.For(l)
		for _, m := range msgs {
			got := p.Msg(m)
			if got == "" || got == m.Key || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") ||
				strings.Contains(got, "grizzled.") || strings.Contains(got, "werewolf.") {
				t.Fatalf("%s: %v renders %q", l, m, got)
			}
		}
	}
}
