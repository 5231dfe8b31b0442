package grizzledui

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// TestRealGames plays seeded games of the real engine with every seat on
// the screen pressing random keys: every screen fits its window, and every
// action a key produces is one the engine listed as legal for that view.
func TestRealGames(t *testing.T) {
	g := grizzled.Game{}
	pressable := []string{"left", "right", "1", "2", "3", "4", "5", "6", "7", "8", "9",
		"p", "enter", "c", "s", "w", "x", "r", "n", "esc"}
	games := 12
	if testing.Short() {
		games = 3
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		humans := 2 + int(seed%4)
		t.Run(fmt.Sprintf("seed%d-%dp", seed, humans), func(t *testing.T) {
			names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}[:humans]
			opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
			st, log, err := g.New(game.Setup{Game: "grizzled", Names: names, Options: opts}, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 99))
			// Sizes vary by seed: standalone 80×24, hosted 80×23 (the root's
			// help bar below), and larger windows.
			sizes := [][3]int{{80, 24, 1}, {80, 23, 0}, {100, 30, 0}, {132, 43, 1}}
			size := sizes[seed%uint64(len(sizes))]
			W, H := size[0], size[1]
			screens := map[game.Seat]*Screen{}
			screen := func(seat game.Seat) *Screen {
				if screens[seat] == nil {
					s := New(asciiTheme())
					s.SetHelpBar(size[2] == 1)
					s.SetSize(W, H)
					screens[seat] = s
				}
				return screens[seat]
			}
			upd := func(seat game.Seat) (table.Update, grizzled.SeatView) {
				v := g.View(st, seat).(grizzled.SeatView)
				_, over := g.Result(st)
				return table.Update{Room: "TEST", Seat: seat, Seq: v.Seq, View: v, Log: game.Refs(log), Started: true, Over: over}, v
			}
			keysPressed := 0
			for step := 0; step < 5000; step++ {
				if _, over := g.Result(st); over {
					break
				}
				if len(log) > 30 {
					log = log[len(log)-30:]
				}
				waiting := g.Waiting(st)
				seat := waiting[rng.IntN(len(waiting))]
				u, v := upd(seat)
				s := screen(seat)
				s.SetUpdate(u)
				checkFits(t, s.View(), W, H)
				if step%25 == 0 {
					su, _ := upd(game.Spectator)
					sp := screen(game.Spectator)
					sp.SetUpdate(su)
					checkFits(t, sp.View(), W, H)
				}
				var a grizzled.Action
				got := false
				for k := 0; k < 400 && !got; k++ {
					keysPressed++
					for _, m := range keys(s, pressable[rng.IntN(len(pressable))]) {
						am, ok := m.(uikit.ActMsg)
						if !ok {
							t.Fatalf("unexpected message %#v", m)
						}
						if am.Seq != v.Seq {
							t.Fatalf("ActMsg Seq %d, view Seq %d", am.Seq, v.Seq)
						}
						a = am.Action.(grizzled.Action)
						if !isLegal(v.Legal, a) {
							t.Fatalf("step %d: keys produced %+v, not in Legal %+v", step, a, v.Legal)
						}
						got = true
					}
				}
				if !got {
					t.Fatalf("step %d: 400 random keys produced no action; phase %d legal %+v\n%s", step, v.Phase, v.Legal, s.View())
				}
				var evs []game.Event
				st, evs, err = g.Apply(st, seat, a)
				if err != nil {
					t.Fatalf("step %d: engine refused %+v: %v", step, a, err)
				}
				log = append(log, evs...)
			}
			if _, over := g.Result(st); !over {
				t.Fatal("game did not end")
			}
			for seat := range screens {
				u, _ := upd(seat)
				screens[seat].SetUpdate(u)
				checkFits(t, screens[seat].View(), W, H)
			}
		})
	}
}

func isLegal(legal []grizzled.Action, a grizzled.Action) bool {
	for _, l := range legal {
		if reflect.DeepEqual(l, a) {
			return true
		}
	}
	return false
}

// TestKeptLinesDrawAsNew: a screen that drew every Update of a game (and
// keeps what it can from frame to frame) draws each one exactly as a fresh
// screen does, before and after a resize.
func TestKeptLinesDrawAsNew(t *testing.T) {
	th := benchTheme()
	for seed := uint64(1); seed <= 4; seed++ {
		updates := playUpdates(t, seed, 5, 2)
		kept := New(th)
		for i, u := range updates {
			w, h := 100, 40 // room for a long log
			if i > len(updates)/2 {
				w, h = 80, 23
			}
			kept.SetSize(w, h)
			kept.SetUpdate(u)
			fresh := New(th)
			fresh.SetSize(w, h)
			fresh.SetUpdate(u)
			if got, want := kept.View(), fresh.View(); got != want {
				t.Fatalf("seed %d, update %d at %d×%d: the kept screen draws\n%s\nwant\n%s", seed, i, w, h, got, want)
			}
		}
	}
}
