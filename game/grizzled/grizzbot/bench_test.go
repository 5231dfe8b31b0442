package grizzbot

import (
	"testing"

	"bivouac/game"
	g "bivouac/game/grizzled"
)

// BenchmarkEasyGame plays one full 4-player standard game per iteration
// with the rule-based bot in every seat, through seat views as a server
// would. games/s/core is b.N / elapsed on one goroutine.
func BenchmarkEasyGame(b *testing.B) {
	bots := make([]game.Bot, 4)
	for i := range bots {
		bots[i] = NewEasy()
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	actions := 0
	i := uint64(0)
	for b.Loop() {
		s, _, err := g.NewGame(names[:4], g.Options{Variant: g.Standard, Leader: game.NoSeat}, i)
		if err != nil {
			b.Fatal(err)
		}
		n, err := Play(s, bots, i)
		if err != nil {
			b.Fatal(err)
		}
		actions += n
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		// Robust to other processes on a busy machine: games per second of
		// CPU time this process used (GC included).
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "games/cpu-s")
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// BenchmarkStrongDecision is one decision of the strong bot at its
// default budget, on the first turn of a 4-player standard game.
func BenchmarkStrongDecision(b *testing.B) {
	s, _, err := g.NewGame(names[:4], g.Options{Variant: g.Standard, Leader: 0}, 7)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Step(0, g.Action{Kind: g.ActIntensity, K: 3}); err != nil {
		b.Fatal(err)
	}
	v := s.View(0)
	bot := NewStrong(DefaultStrong)
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		if _, ok := bot.Act(v, i); !ok {
			b.Fatal("no action")
		}
		i++
	}
	b.ReportMetric(float64(len(v.Legal)), "candidates")
}
