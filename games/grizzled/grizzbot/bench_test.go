package grizzbot

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
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

// BenchmarkStrongDecisionTimes plays 2- to 5-player standard and veteran
// games with the "strong" level in every seat, on one goroutine, timing
// every decision the bot is asked for (forced ones are not asked): p50,
// p99 and the slowest, in milliseconds. Each iteration is one game. The
// cpu- figures time the same decisions by the CPU time this process used,
// which a busy machine does not inflate as it does the wall clock.
func BenchmarkStrongDecisionTimes(b *testing.B) {
	bot, err := Bots{}.New(LevelStrong)
	if err != nil {
		b.Fatal(err)
	}
	var times, cpu []time.Duration
	var bySize [6][]time.Duration // times by number of soldiers
	i := uint64(0)
	for b.Loop() {
		players := 2 + int(i%4)
		variant := []g.Variant{g.Standard, g.Veteran}[i/4%2]
		s, _, err := g.NewGame(names[:players], g.Options{Variant: variant, Leader: game.NoSeat}, 100+i)
		if err != nil {
			b.Fatal(err)
		}
		var buf []g.Action
		for n := 0; n < MaxActions; n++ {
			if _, over := s.Over(); over {
				break
			}
			seat := firstWaiting(s)
			var act g.Action
			if buf = s.AppendLegal(buf[:0], seat); len(buf) == 1 {
				act = buf[0]
			} else {
				start, cpu0 := time.Now(), cpuTime()
				a, _ := bot.Act(s.View(seat), mix(i, uint64(n)))
				times = append(times, time.Since(start))
				bySize[players] = append(bySize[players], times[len(times)-1])
				cpu = append(cpu, cpuTime()-cpu0)
				act = a.(g.Action)
			}
			if err := s.Step(seat, act); err != nil {
				b.Fatal(err)
			}
		}
		i++
	}
	slices.Sort(times)
	slices.Sort(cpu)
	at := func(ts []time.Duration, q float64) float64 { return float64(ts[int(q*float64(len(ts)-1))]) / 1e6 }
	b.ReportMetric(at(times, 0.5), "p50-ms")
	b.ReportMetric(at(times, 0.99), "p99-ms")
	b.ReportMetric(at(times, 1), "max-ms")
	for n, ts := range bySize {
		if len(ts) > 0 {
			slices.Sort(ts)
			b.ReportMetric(at(ts, 0.99), fmt.Sprintf("p99-ms-%dp", n))
		}
	}
	if cpu[len(cpu)-1] > 0 { // 0 where the platform does not tell
		b.ReportMetric(at(cpu, 0.5), "cpu-p50-ms")
		b.ReportMetric(at(cpu, 0.99), "cpu-p99-ms")
	}
	b.ReportMetric(float64(len(times))/float64(b.N), "decisions/game")
}
