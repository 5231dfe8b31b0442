package remote

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/table"
)

var games = game.Registry{{Game: grizzled.Game{}, Bots: grizzbot.Bots{}}}

// memJournal keeps a room's log in memory, so a test can replay it to
// the view every seat should have had.
type memJournal struct {
	mu      sync.Mutex
	entries [][]byte
	rec     table.RoomRecord
}

func (j *memJournal) Append(room string, seq uint64, entry []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, append([]byte(nil), entry...))
	return nil
}

func (j *memJournal) SaveRoom(rec table.RoomRecord) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.rec = rec
	return nil
}

// viewsBySeq replays the log: the view seat should have had after each
// number of actions, encoded.
func (j *memJournal) viewsBySeq(t testing.TB, seat game.Seat) map[int][]byte {
	j.mu.Lock()
	defer j.mu.Unlock()
	g := grizzled.Game{}
	out := map[int][]byte{}
	_, err := table.ReplayEach(g, j.rec.Setup, j.rec.Seed, j.entries, func(i int, _ game.Seat, s game.State, _ []game.Event) {
		b, err := g.EncodeView(g.View(s, seat))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// connect opens a client connection to node i, closed with the test.
func connect(t testing.TB, c *natstest.Cluster, i int) *nats.Conn {
	t.Helper()
	nc, err := c.Nodes[i].Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// dial is Dial for a test: a room that must be there.
func dial(t testing.TB, ctx context.Context, nc *nats.Conn, room *table.Room, opts Options) *Handle {
	t.Helper()
	h, err := Dial(ctx, nc, room.Code(), games, opts)
	if err != nil {
		t.Fatalf("dialling %s: %v", room.Code(), err)
	}
	return h
}

// grizzledRoom opens a Grizzled table of seats on a fresh hub, bots filling
// the last bots seats, hosted by "p0".
func grizzledRoom(t testing.TB, ctx context.Context, seats, bots int, j table.Journal) *table.Room {
	t.Helper()
	hub := table.NewHub(ctx, nil)
	r, err := hub.Create(table.RoomConfig{Game: grizzled.Game{}, Bots: grizzbot.Bots{}, Title: game.Raw("test"),
		Seats: seats, Host: "p0", Options: table.Options{BotLevel: grizzbot.LevelEasy}, FillBots: bots, Seed: 11, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// player is one session driven by an easy bot that sees only its updates.
type player struct {
	room table.RoomHandle
	box  *table.Mailbox
	seat game.Seat
	bot  game.Bot
}

func join(t testing.TB, ctx context.Context, room table.RoomHandle, id string) *player {
	t.Helper()
	p := &player{room: room, box: table.NewMailbox(), bot: grizzbot.NewEasy()}
	seat, err := room.Join(ctx, table.Player{ID: id, Name: id}, p.box, false)
	if err != nil {
		t.Fatalf("%s joins %s: %v", id, room.Code(), err)
	}
	p.seat = seat
	return p
}

// until reads p's updates until ok says stop; it fails the test on a
// closed table or at ctx's end.
func (p *player) until(t testing.TB, ctx context.Context, ok func(table.Update) bool) table.Update {
	t.Helper()
	for {
		u, more := p.box.Next(ctx)
		if !more {
			t.Fatalf("seat %d: no update in time", p.seat)
		}
		if u.Closed != table.Open {
			t.Fatalf("seat %d: the table closed: %v", p.seat, u.Closed)
		}
		if ok(u) {
			return u
		}
	}
}

// move is the bot's choice for p's seat in u, if the seat has one.
func (p *player) move(u table.Update) (game.Action, bool) {
	if !u.Started || u.Over || u.View == nil {
		return nil, false
	}
	return p.bot.Act(u.View, uint64(u.Seq)*31+uint64(p.seat))
}

func timeout(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
