package grizzledui

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func benchTheme() *uikit.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	return uikit.New(r)
}

// BenchmarkView draws the table as a session at 80×24 in 256 colours does
// after every update: the server's main cost while tables play.
func BenchmarkView(b *testing.B) {
	th := benchTheme()
	for _, c := range []struct {
		name string
		u    table.Update
	}{{"mid-mission", midMission()}, {"speech", speechAnswer()}, {"support", supportReveal()}} {
		b.Run(c.name, func(b *testing.B) {
			s := New(th)
			s.SetSize(80, 23) // the session keeps the last line for its help bar
			s.SetUpdate(c.u)
			b.ReportAllocs()
			for b.Loop() {
				_ = s.View()
			}
		})
	}
}

// BenchmarkPlay is one seat's frame per move while a five-seat table plays
// the real engine: each op takes the next Update (with the newest 40
// events) and draws it. Unlike BenchmarkView, what a frame can keep from
// the last one is measured too.
func BenchmarkPlay(b *testing.B) {
	updates := playUpdates(b, 7, 5, 0)
	s := New(benchTheme())
	s.SetSize(80, 23)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.SetUpdate(updates[i%len(updates)])
		_ = s.View()
		i++
	}
}

// BenchmarkTableMove is what a move costs the screens of a five-seat
// table: every seat takes its Update and draws it, as the sessions at a
// table do one after another after each move.
func BenchmarkTableMove(b *testing.B) {
	steps := playTable(b, 7, 5)
	th := benchTheme()
	screens := make([]*Screen, 5)
	for i := range screens {
		screens[i] = New(th)
		screens[i].SetSize(80, 23)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		for seat, s := range screens {
			s.SetUpdate(steps[i%len(steps)][seat])
			_ = s.Lines() // as the session takes it (frameLines)
		}
		i++
	}
}

// BenchmarkTablesMove is BenchmarkTableMove over 64 tables, each playing
// a game of its own, a move at each table in turn: a table's parts are
// found kept from its last move, not from the same move one game ago (one
// game's few dozen moves all stay in the shared memos), as at a server
// where hundreds of tables play.
func BenchmarkTablesMove(b *testing.B) {
	const tables = 64
	var games [][][]table.Update
	for seed := uint64(1); len(games) < tables; seed++ {
		if g := playTable(b, seed, 5); len(g) >= 30 {
			games = append(games, g)
		}
	}
	th := benchTheme()
	screens := make([][]*Screen, tables)
	for t := range screens {
		screens[t] = make([]*Screen, 5)
		for i := range screens[t] {
			screens[t][i] = New(th)
			screens[t][i].SetSize(80, 23)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t := i % tables
		g := games[t]
		step := g[(i/tables)%len(g)]
		for seat, s := range screens[t] {
			s.SetUpdate(step[seat])
			_ = s.Lines()
		}
		i++
	}
}

// playUpdates plays a seeded game of n seats, each move a random legal one,
// and returns the Updates seat would get after every move.
func playUpdates(tb testing.TB, seed uint64, n int, seat game.Seat) []table.Update {
	var out []table.Update
	for _, step := range playTable(tb, seed, n) {
		out = append(out, step[seat])
	}
	return out
}

// playTable plays a seeded game of n seats, each move a random legal one,
// and returns the Updates every seat would get after every move.
func playTable(tb testing.TB, seed uint64, n int) [][]table.Update {
	g := grizzled.Game{}
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}[:n]
	seats := make([]table.SeatInfo, n)
	for i, name := range names {
		seats[i] = table.SeatInfo{Seat: game.Seat(i), Name: name, Connected: true}
	}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: names, Options: opts}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var out [][]table.Update
	for step := 0; step < 2000; step++ {
		_, over := g.Result(st)
		if len(log) > 40 {
			log = log[len(log)-40:]
		}
		var us []table.Update
		for seat := range n {
			v := g.View(st, game.Seat(seat)).(grizzled.SeatView)
			us = append(us, table.Update{Room: "K7QX", Title: game.Raw("The Grizzled · standard"), Game: "grizzled",
				Seat: game.Seat(seat), Seq: v.Seq, View: v, Log: game.Refs(log), Seats: seats, Started: true, Over: over})
		}
		out = append(out, us)
		if over {
			break
		}
		waiting := g.Waiting(st)
		who := waiting[rng.IntN(len(waiting))]
		legal := g.View(st, who).(grizzled.SeatView).Legal
		var evs []game.Event
		if st, evs, err = g.Apply(st, who, legal[rng.IntN(len(legal))]); err != nil {
			tb.Fatal(err)
		}
		log = append(log, evs...)
	}
	return out
}
