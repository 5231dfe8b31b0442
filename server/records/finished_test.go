package records

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
)

// A finished game's time is when it ended, whatever came after: a room
// saved again when it closed (minutes later, as after a restart) listed
// the closing time, out of order (issue 42 item 3).
func TestFinishedGamesShowWhenTheyEnded(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Date(2026, 11, 29, 1, 21, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	store, err := persistence.Open(filepath.Join(t.TempDir(), "bivouac.db"), persistence.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	j := persistence.Journal{Store: store}
	rec := New(Options{Store: store, Games: games.Catalog()})
	ann := "SHA256:ann"
	store.Seen(ann, "ann")
	finish := func(code string) table.RoomRecord {
		r := table.RoomRecord{Code: code, Game: "grizzled", Title: game.Raw(code), Status: table.StatusOver,
			Setup:  game.Setup{Game: "grizzled"},
			Seats:  []table.SeatRecord{{Seat: 0, Identity: ann, Name: "ann"}, {Seat: 1, Bot: "easy", Name: "Bruno"}},
			Result: &game.Result{Outcome: "win", Winners: []game.Seat{0}, Summary: game.Raw("won")}}
		if err := j.SaveRoom(r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := finish("AAAA") // 01:21
	advance(4 * time.Minute)
	finish("BBBB") // 01:25
	advance(15 * time.Minute)
	if err := j.SaveRoom(first); err != nil { // AAAA closes at 01:40
		t.Fatal(err)
	}
	got, err := rec.Finished(ann, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"BBBB": "01:25", "AAAA": "01:21"}
	if len(got) != 2 || got[0].Code != "BBBB" {
		t.Fatalf("finished games %+v, want BBBB then AAAA", got)
	}
	for _, g := range got {
		if at := g.When.UTC().Format("15:04"); at != want[g.Code] {
			t.Errorf("%s listed at %s, want %s, when it ended", g.Code, at, want[g.Code])
		}
	}
}
