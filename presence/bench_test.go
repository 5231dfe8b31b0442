package presence

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// The presence benchmark (docs/PERFORMANCE.md): 10,000 players online,
// 50 friends each (all online, the worst case), one node. A login is a
// player's session closing and coming again; a table change is a player
// moving to another table. Each signalled friend's session reads its
// friends again (as a lobby or friends page on screen does), so the cost
// includes what the viewers pay. At 100 logins and 100 table changes a
// second the cost per second is 100 × (ns/login + ns/change).
const (
	benchPlayers = 10_000
	benchFriends = 50
)

type benchWorld struct {
	hub      *Hub
	ids      []string
	circles  []Circle
	sessions []*Session
}

// newBenchWorld joins n players in a ring where each befriends the 25
// before and the 25 after it (mutual, benchFriends each).
func newBenchWorld(b *testing.B, hub *Hub) *benchWorld {
	b.Helper()
	w := &benchWorld{hub: hub}
	for i := range benchPlayers {
		w.ids = append(w.ids, fmt.Sprintf("SHA256:player%05d", i))
	}
	for i := range benchPlayers {
		c := Circle{Name: fmt.Sprintf("p%d", i)}
		for d := 1; d <= benchFriends/2; d++ {
			c.Friends = append(c.Friends, w.ids[(i+d)%benchPlayers], w.ids[(i-d+benchPlayers)%benchPlayers])
		}
		w.circles = append(w.circles, c)
	}
	for i, id := range w.ids {
		w.sessions = append(w.sessions, hub.Join(id, w.circles[i].Name, w.circles[i]))
	}
	return w
}

// read has every signalled friend of player i read what changed, as a
// session with its friends on screen does.
func (w *benchWorld) read(i int) {
	for d := 1; d <= benchFriends/2; d++ {
		for _, j := range [2]int{(i + d) % benchPlayers, (i - d + benchPlayers) % benchPlayers} {
			if s := w.sessions[j]; signalled(s) {
				ids, all := s.Changed()
				if all {
					_ = s.Friends()
				}
				for _, id := range ids {
					_, _ = s.Friend(id)
				}
			}
		}
	}
}

func BenchmarkPresenceLogin(b *testing.B) {
	w := newBenchWorld(b, New("n1", nil))
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		i := rng.IntN(benchPlayers)
		w.sessions[i].Close()
		w.read(i)
		w.sessions[i] = w.hub.Join(w.ids[i], w.circles[i].Name, w.circles[i])
		w.read(i)
		_ = w.sessions[i].Friends() // the newcomer's lobby draws its friends
	}
}

func BenchmarkPresenceTableChange(b *testing.B) {
	w := newBenchWorld(b, New("n1", nil))
	rng := rand.New(rand.NewPCG(3, 4))
	stage := words.M("grizzled.stage.mission", words.Num("N", 1))
	b.ReportAllocs()
	b.ResetTimer()
	for n := range b.N {
		i := rng.IntN(benchPlayers)
		w.sessions[i].Set(Place{Where: AtTable, Game: "grizzled", Code: fmt.Sprintf("T%03d", n%1000), Started: true, Stage: stage})
		w.read(i)
	}
}

// The sweep that marks sessions away, over 10,000 players online (none
// changing: what every sweep costs, every awayEvery; the keys' stamps are
// set outside the timer).
func BenchmarkAwaySweep(b *testing.B) {
	h := New("", nil)
	w := newBenchWorld(b, h)
	now := time.Now()
	h.SetClock(func() time.Time { return now })
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		now = now.Add(awayEvery)
		for _, s := range w.sessions {
			s.last.Store(now.UnixNano())
		}
		b.StartTimer()
		h.Sweep()
	}
}
