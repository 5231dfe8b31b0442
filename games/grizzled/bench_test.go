package grizzled

import (
	"math/rand/v2"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// benchLog is a few recorded random 4-player games: their first states and
// action logs, replayed by the benchmarks.
type benchGame struct {
	start *State
	log   []logged
}

func benchGames(b *testing.B, n int) []benchGame {
	b.Helper()
	var gs []benchGame
	for i := range n {
		o := Options{Variant: Standard, Leader: game.NoSeat}
		_, log := randomGame(b, 4, o, uint64(100+i), false, nil)
		gs = append(gs, benchGame{start: newTestGame(b, 4, o, uint64(100+i)), log: log})
	}
	return gs
}

func replayBench(b *testing.B, loud bool) {
	gs := benchGames(b, 20)
	b.ReportAllocs()
	b.ResetTimer()
	done := 0
	batch := make([]*State, 0, 256)
	for done < b.N {
		// Fresh copies of the first states, made with the timer stopped
		// (in batches: stopping the timer is itself costly).
		b.StopTimer()
		batch = batch[:0]
		for i := range cap(batch) {
			batch = append(batch, gs[i%len(gs)].start.Clone())
		}
		b.StartTimer()
		for i, s := range batch {
			for _, l := range gs[i%len(gs)].log {
				var err error
				if loud {
					_, err = s.Apply(l.seat, l.act)
				} else {
					err = s.Step(l.seat, l.act)
				}
				if err != nil {
					b.Fatal(err)
				}
				done++
				if done == b.N {
					return
				}
			}
		}
	}
}

// BenchmarkApply: one action with events (the server path); ns/op is per action.
func BenchmarkApply(b *testing.B) { replayBench(b, true) }

// BenchmarkStep: one action without events (the bots' path).
func BenchmarkStep(b *testing.B) { replayBench(b, false) }

// BenchmarkLegal: the legal actions of the waited-on seat, into a reused buffer.
func BenchmarkLegal(b *testing.B) {
	states := benchStates(b)
	var buf []Action
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s := states[i%len(states)]
		buf = s.AppendLegal(buf[:0], s.Waiting()[0])
	}
}

// BenchmarkView: one seat's full view (a fresh deep copy, legal actions included).
func BenchmarkView(b *testing.B) {
	states := benchStates(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s := states[i%len(states)]
		_ = s.View(game.Seat(i % 4))
	}
}

// BenchmarkRandomGame: a whole 4-player game with a random legal policy
// (New, then Step with AppendLegal into a reused buffer).
func BenchmarkRandomGame(b *testing.B) {
	b.ReportAllocs()
	actions := 0
	var buf []Action
	for i := range b.N {
		s, _, err := NewGame(testNames[:4], Options{Variant: Standard, Leader: game.NoSeat}, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 1))
		for {
			if _, over := s.Over(); over {
				break
			}
			var seat game.Seat
			for p := range s.Seats() {
				if s.WaitsOn(game.Seat(p)) {
					seat = game.Seat(p)
					break
				}
			}
			buf = s.AppendLegal(buf[:0], seat)
			if err := s.Step(seat, buf[r.IntN(len(buf))]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

func benchStates(b *testing.B) []*State {
	var states []*State
	for _, g := range benchGames(b, 5) {
		s := g.start.Clone()
		for _, l := range g.log {
			if s.phase != PhaseOver {
				states = append(states, s.Clone())
			}
			if err := s.Step(l.seat, l.act); err != nil {
				b.Fatal(err)
			}
		}
	}
	return states
}

// BenchmarkClone: a deep copy of a mid-game state (bots clone per sample).
func BenchmarkClone(b *testing.B) {
	states := benchStates(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		_ = states[i%len(states)].Clone()
	}
}

// BenchmarkDeterminize: a full state from one seat's view.
func BenchmarkDeterminize(b *testing.B) {
	states := benchStates(b)
	views := make([]SeatView, len(states))
	for i, s := range states {
		views[i] = s.View(s.Waiting()[0])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		_ = Determinize(views[i%len(views)], uint64(i))
	}
}
