package remote

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
)

// stamped is an update and when it reached its session.
type stamped struct {
	u  table.Update
	at time.Time
}

// feed reads a player's mailbox as it fills, stamping each update, so a
// benchmark measures arrival, not when it got round to reading.
type feed struct {
	*player
	ch   chan stamped
	last table.Update
}

func newFeed(ctx context.Context, p *player) *feed {
	f := &feed{player: p, ch: make(chan stamped, 1024)}
	go func() {
		for {
			u, ok := p.box.Next(ctx)
			if !ok || u.Closed != table.Open {
				return
			}
			f.ch <- stamped{u, time.Now()}
		}
	}()
	return f
}

func (f *feed) next(b *testing.B, ctx context.Context) stamped {
	select {
	case s := <-f.ch:
		f.last = s.u
		return s
	case <-ctx.Done():
		b.Fatalf("seat %d: no update", f.seat)
		return stamped{}
	}
}

// table on node B, its seats' sessions on the given nodes (-1: the bot
// seats; B: local, through *table.Room itself).
type benchTable struct {
	feeds []*feed
	owner *Owner
}

func openTable(b *testing.B, ctx context.Context, cl *natstest.Cluster, where []int, bots int) *benchTable {
	const owner = 1
	room := grizzledRoom(b, ctx, len(where)+bots, bots, nil)
	o, err := Serve(connect(b, cl, owner), room, grizzled.Game{}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	t := &benchTable{owner: o}
	for i, n := range where {
		var h table.RoomHandle = room
		if n != owner {
			h = dial(b, ctx, connect(b, cl, n), room, Options{})
		}
		t.feeds = append(t.feeds, newFeed(ctx, join(b, ctx, h, "p"+string(rune('0'+i)))))
	}
	if err := t.feeds[0].room.Start(ctx, t.feeds[0].box); err != nil {
		b.Fatal(err)
	}
	for _, f := range t.feeds {
		for !f.last.Started {
			f.next(b, ctx)
		}
	}
	return t
}

// move makes one move at t and returns how long each seat took to see
// the table move past it; ok is false when nobody had a move (the game
// is over, or it waits on bots).
func (t *benchTable) move(b *testing.B, ctx context.Context) (lat []time.Duration, over bool) {
	seq := 0
	for _, f := range t.feeds {
		seq = max(seq, f.last.Seq)
	}
	for _, f := range t.feeds {
		for f.last.Seq < seq {
			f.next(b, ctx)
		}
		if f.last.Over {
			return nil, true
		}
	}
	for _, f := range t.feeds {
		a, ok := f.move(f.last)
		if !ok {
			continue
		}
		start := time.Now()
		if err := f.room.Act(f.box, seq, a); err != nil {
			b.Fatal(err)
		}
		for {
			s := f.next(b, ctx)
			if !s.u.Notice.IsZero() && s.u.Seq == seq {
				return nil, false // refused: nothing moved
			}
			if s.u.Seq > seq {
				lat = append(lat, s.at.Sub(start))
				break
			}
		}
		for _, g := range t.feeds {
			for g != f && g.last.Seq <= seq {
				s := g.next(b, ctx)
				if s.u.Seq > seq {
					lat = append(lat, s.at.Sub(start))
				}
			}
		}
		return lat, false
	}
	t.feeds[0].next(b, ctx) // bots or a timer are next
	return nil, false
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
}

// BenchmarkKeypressToOwnUpdate: a move sent → the mover's own update
// back, for a player on the owner's node (local) and on another (remote).
// A table is one player and a bot; the bot's turns are not timed.
func BenchmarkKeypressToOwnUpdate(b *testing.B) {
	cl := natstest.Start(b, 3, nil)
	for _, bc := range []struct {
		name string
		node int
	}{{"local", 1}, {"remote", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var lat []time.Duration
			t := openTable(b, ctx, cl, []int{bc.node}, 1)
			b.ResetTimer()
			for len(lat) < b.N {
				l, over := t.move(b, ctx)
				if over {
					t.owner.Close()
					t = openTable(b, ctx, cl, []int{bc.node}, 1)
				}
				lat = append(lat, l...)
			}
			reportPercentiles(b, lat)
		})
	}
}

// BenchmarkFanOut4Seats3Nodes: one move → the slowest of four seats
// seeing it, the seats on nodes B (the owner), A, C and A.
func BenchmarkFanOut4Seats3Nodes(b *testing.B) {
	cl := natstest.Start(b, 3, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	where := []int{1, 0, 2, 0}
	t := openTable(b, ctx, cl, where, 0)
	var lat []time.Duration
	b.ResetTimer()
	for len(lat) < b.N {
		l, over := t.move(b, ctx)
		if over {
			t.owner.Close()
			t = openTable(b, ctx, cl, where, 0)
		}
		if len(l) > 0 {
			lat = append(lat, slices.Max(l))
		}
	}
	reportPercentiles(b, lat)
}

// BenchmarkUpdateCodec: what a remote update costs in encoding alone
// (owner: the update and the summary; session: decoding them, rebuilding
// the logs), on a Grizzled update some moves into a four-seat game: sent
// whole, and as the delta from the update before it.
func BenchmarkUpdateCodec(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	room := grizzledRoom(b, ctx, 4, 3, nil)
	p := join(b, ctx, room, "p0")
	if err := room.Start(ctx, p.box); err != nil {
		b.Fatal(err)
	}
	var before table.Update
	u := p.until(b, ctx, func(u table.Update) bool {
		if u.Seq < 12 {
			before = u
		}
		if a, ok := p.move(u); ok {
			room.Act(p.box, u.Seq, a)
		}
		return u.Seq >= 12 || u.Over
	})
	sum := room.Summary()
	g := grizzled.Game{}
	for _, whole := range []bool{true, false} {
		b.Run(map[bool]string{true: "whole", false: "delta"}[whole], func(b *testing.B) {
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				out := sent{n: 1, log: before.Log, public: before.Public, full: whole}
				in := received{n: 1, synced: true, last: before}
				w, d := out.delta(u)
				up, err := table.EncodeUpdate(g, w)
				if err != nil {
					b.Fatal(err)
				}
				d.Update, d.Summary = up, &sum
				msg, _ := json.Marshal(d)
				size = len(msg)
				var back delivery
				if err := json.Unmarshal(msg, &back); err != nil {
					b.Fatal(err)
				}
				bw, err := table.DecodeUpdate(g, back.Update)
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := in.apply(back, bw); !ok {
					b.Fatal("the delta does not apply")
				}
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}
