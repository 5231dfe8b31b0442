package table

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// countingMeter counts the moves it hears and keeps the longest.
type countingMeter struct{ moves, longest atomic.Int64 }

func (m *countingMeter) Moved(took time.Duration) {
	m.moves.Add(1)
	if int64(took) > m.longest.Load() {
		m.longest.Store(int64(took))
	}
}

// A room's meter hears each move it took, with the time it took, and not
// the moves it refused.
func TestMeterHearsAcceptedMovesOnly(t *testing.T) {
	m := &countingMeter{}
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Journal: NewMemJournal(), Meter: m})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, bob, "started", func(u Update) bool { return u.Started })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.ActNow(ctx, bob, u.Seq, 2); err == nil {
		t.Fatal("bob moved on alice's turn")
	}
	if err := r.ActNow(ctx, alice, u.Seq, 2); err != nil {
		t.Fatal(err)
	}
	if got := m.moves.Load(); got != 1 {
		t.Fatalf("meter heard %d moves, want 1 (the refused one is not a move)", got)
	}
	if m.longest.Load() <= 0 {
		t.Fatal("a move took no time")
	}
}

// EachLocal lists the rooms this hub runs.
func TestEachLocalListsTheHubsRooms(t *testing.T) {
	h, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	var codes []string
	h.EachLocal(func(s Summary) { codes = append(codes, s.Code) })
	if len(codes) != 1 || codes[0] != r.Code() {
		t.Fatalf("EachLocal gave %v, want [%s]", codes, r.Code())
	}
}
