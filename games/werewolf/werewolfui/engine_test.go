package werewolfui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// TestRealGames plays seeded games of the real engine with every seat on a
// screen pressing random keys (timers expire now and then): every screen
// fits its window, and every action a key produces is one the engine listed
// as legal in the view the screen showed.
func TestRealGames(t *testing.T) {
	g := werewolf.Game{}
	pressable := []string{"up", "down", "j", "k", "enter", "enter", "x", "p", "h", "1", "2", "r", "s", "esc",
		"c", "pgup", "pgdown", "Q", "z"}
	games := 16
	if testing.Short() || raceOn {
		games = 6
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		n := 8 + int(seed*5%11) // 8..18
		opts := werewolf.DefaultOptions()
		if seed%2 == 0 {
			opts = werewolf.ClassicOptions()
		}
		if seed%5 == 0 {
			opts.SmallTable = true
			opts.Preset = werewolf.PresetStarter
			n = 5 + int(seed%3)
		}
		t.Run(fmt.Sprintf("seed%d-%dp-%s", seed, n, opts.Preset), func(t *testing.T) {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprintf("P%02d", i+1)
			}
			st, evs, err := g.New(game.Setup{Game: werewolf.ID, Names: names, Options: opts.Encode()}, seed)
			if err != nil {
				t.Fatal(err)
			}
			logs := map[game.Seat][]game.Event{}
			record := func(evs []game.Event) {
				for _, e := range evs {
					for s := game.Seat(-1); s < game.Seat(n); s++ {
						if e.Audience.Includes(s) || (s == game.Spectator && e.Audience.All) {
							l := append(logs[s], e)
							if len(l) > 40 {
								l = l[len(l)-40:]
							}
							logs[s] = l
						}
					}
				}
			}
			record(evs)
			rng := rand.New(rand.NewPCG(seed, 42))
			sizes := [][3]int{{80, 24, 1}, {80, 23, 0}, {100, 30, 0}, {132, 43, 1}}
			size := sizes[seed%uint64(len(sizes))]
			W, H := size[0], size[1]
			screens := map[game.Seat]*Screen{}
			seq := 0
			upd := func(seat game.Seat) (table.Update, werewolf.SeatView) {
				v := g.View(st, seat).(werewolf.SeatView)
				_, over := g.Result(st)
				return table.Update{Room: "TEST", Game: werewolf.ID, Seat: seat, Seq: seq, View: v,
					Log: game.Refs(logs[seat]), Started: true, Over: over, Deadline: v.Deadline}, v
			}
			actions, ticks := 0, 0
			for step := 0; step < 6000; step++ {
				if _, over := g.Result(st); over {
					break
				}
				seat := game.Seat(rng.IntN(n+1) - 1) // the spectator too
				s := screens[seat]
				if s == nil {
					s = New(asciiTheme())
					s.SetHelpBar(size[2] == 1)
					s.SetSize(W, H)
					screens[seat] = s
				}
				u, v := upd(seat)
				s.Update(uikit.UpdateMsg{Update: &u})
				out := s.View()
				checkFits(t, out, W, H)
				if s.asleep() && !s.showCard && strings.Contains(out, "Your card:") {
					t.Fatalf("step %d seat %d: an asleep screen shows the card:\n%s", step, seat, out)
				}
				var acted bool
				for k := 0; k < 6 && !acted; k++ {
					for _, m := range keys(s, pressable[rng.IntN(len(pressable))]) {
						am, ok := m.(uikit.ActMsg)
						if !ok {
							if _, leave := m.(uikit.LeaveMsg); leave {
								continue
							}
							t.Fatalf("unexpected message %#v", m)
						}
						a := am.Action.(werewolf.Action)
						if am.Seq != seq || !v.IsLegal(a) || seat < 0 {
							t.Fatalf("step %d seat %d: keys produced %v (seq %d/%d), not in Legal %v", step, seat, a, am.Seq, seq, v.Legal)
						}
						var evs []game.Event
						if st, evs, err = g.Apply(st, seat, a); err != nil {
							t.Fatalf("step %d: engine refused %v: %v", step, a, err)
						}
						record(evs)
						seq++
						actions++
						acted = true
					}
				}
				if !acted && rng.IntN(6) == 0 {
					tm, _ := g.Timer(st)
					var evs []game.Event
					if st, evs, err = g.Apply(st, game.System, tm.Action); err != nil {
						t.Fatal(err)
					}
					record(evs)
					seq++
					ticks++
				}
			}
			if _, over := g.Result(st); !over {
				t.Fatalf("game did not end (%d actions, %d ticks)", actions, ticks)
			}
			for seat, s := range screens {
				u, _ := upd(seat)
				s.SetUpdate(u)
				checkFits(t, s.View(), W, H)
			}
			t.Logf("%d actions from keys, %d timer expiries", actions, ticks)
		})
	}
}

// TestKeptLinesDrawAsNew: a seat's screen that drew every Update of a game
// (and keeps its log's lines from frame to frame, and shares those of the
// events other seats heard too) draws each one exactly as it would with
// nothing kept, chat lines of the pack and the table included.
func TestKeptLinesDrawAsNew(t *testing.T) {
	g := werewolf.Game{}
	const n = 10
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("P%02d", i+1)
	}
	st, log, err := g.New(game.Setup{Game: werewolf.ID, Names: names, Options: werewolf.DefaultOptions().Encode()}, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 7))
	var kept [2]*Screen // a wolf's screen and a villager's
	var seats [2]game.Seat
	for i := range n {
		j := 1
		if g.View(st, game.Seat(i)).(werewolf.SeatView).Card == werewolf.RoleWerewolf {
			j = 0
		}
		if kept[j] == nil {
			kept[j], seats[j] = New(asciiTheme()), game.Seat(i)
			kept[j].now = func() time.Time { return clock0 }
			kept[j].SetSize(100, 40)
		}
	}
	chats := 0
	for step := 0; step < 6000; step++ {
		if _, over := g.Result(st); over {
			break
		}
		if len(log) > 40 {
			log = log[len(log)-40:]
		}
		for j, s := range kept {
			var mine []*game.Event
			for _, e := range log {
				if e.Audience.Includes(seats[j]) {
					mine = append(mine, &e) // a copy: matched by what it says
				}
			}
			v := g.View(st, seats[j]).(werewolf.SeatView)
			u := table.Update{Room: "TEST", Game: werewolf.ID, Seat: seats[j], Seq: step, View: v, Log: mine, Started: true, Deadline: v.Deadline}
			s.SetUpdate(u)
			// The same screen, its log drawn from nothing: neither its own
			// lines of the last frame nor those another seat drew.
			afresh := *s
			afresh.logMemo = uikit.LogMemo{}
			got := s.View()
			shared := sharedLines
			sharedLines = uikit.NewSharedLines(64)
			want := afresh.View()
			sharedLines = shared
			if got != want {
				t.Fatalf("step %d, seat %d: the kept screen draws\n%s\nwant\n%s", step, seats[j], got, want)
			}
		}
		seat := game.Seat(rng.IntN(n))
		var evs []game.Event
		if rng.IntN(8) == 0 { // a chat line, on whichever channel the seat speaks in now
			line := fmt.Sprintf("line %d", step)
			if a, ok := g.ChatAction(st, seat, line); ok {
				st, evs, err = g.Apply(st, seat, a)
			} else {
				evs, err = g.Say(st, seat, line)
			}
			if err == nil {
				chats++
			}
			err = nil // the seat may not speak now
		} else if legal := g.View(st, seat).(werewolf.SeatView).Legal; len(legal) > 0 {
			st, evs, err = g.Apply(st, seat, legal[rng.IntN(len(legal))])
		} else if tm, ok := g.Timer(st); ok && rng.IntN(2) == 0 {
			st, evs, err = g.Apply(st, game.System, tm.Action)
		}
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, evs...)
	}
	if _, over := g.Result(st); !over || chats == 0 {
		t.Fatalf("the game did not end, or nobody spoke (%d chat lines)", chats)
	}
}
