package persistence

import (
	"reflect"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

func engineRoom(code string, status table.RoomStatus) table.RoomRecord {
	opts := []byte(`{"difficulty":"hard"}`)
	return table.RoomRecord{
		Code: code, Game: "grizzled", Title: game.Raw("Ann's table"), GameOptions: opts,
		Setup: game.Setup{Game: "grizzled", Options: opts, Names: []string{"ann", "guest", "bot"}},
		Seed:  7,
		Seats: []table.SeatRecord{
			{Seat: 0, Identity: "SHA256:ann", Name: "ann", Badge: "veteran"},
			{Seat: 1, Identity: "guest:Q7", Name: "guest", Guest: true},
			{Seat: 2, Name: "bot", Bot: "strong"},
		},
		Status: status, Options: table.Options{Private: true, BotLevel: "strong", Campaign: "somme", Allowed: []string{"SHA256:ann"}}, Host: "SHA256:ann",
		Seq:     3,
		Created: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC),
	}
}

func TestJournalRoundTripAndRestorable(t *testing.T) {
	s := openTemp(t)
	j := Journal{Store: s, Variant: func(r table.RoomRecord) string { return "hard" }}

	in := engineRoom("K7QX", table.StatusPlaying)
	if err := j.SaveRoom(in); err != nil {
		t.Fatal(err)
	}
	for seq := uint64(1); seq <= 3; seq++ {
		if err := j.Append("K7QX", seq, table.EncodeEntry(0, []byte{byte(seq)})); err != nil {
			t.Fatal(err)
		}
	}
	waiting := engineRoom("W8", table.StatusWaiting)
	waiting.Setup.Names = nil
	if err := j.SaveRoom(waiting); err != nil {
		t.Fatal(err)
	}
	over := engineRoom("OV", table.StatusOver)
	over.Result = &game.Result{Outcome: "win", Winners: []game.Seat{0, 1, 2}}
	if err := j.SaveRoom(over); err != nil {
		t.Fatal(err)
	}
	if err := j.SaveRoom(engineRoom("CL", table.StatusClosed)); err != nil {
		t.Fatal(err)
	}

	saved, err := j.Restorable()
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != 2 || saved[0].Record.Code != "W8" || saved[1].Record.Code != "K7QX" {
		t.Fatalf("Restorable = %+v; want W8 (waiting) then K7QX (playing)", saved)
	}
	got := saved[1].Record
	if got.Updated.IsZero() {
		t.Fatal("no Updated stamp")
	}
	got.Updated = time.Time{}
	if !reflect.DeepEqual(got, in) {
		t.Fatalf("engine record round trip:\n got %+v\nwant %+v", got, in)
	}
	if len(saved[1].Log) != 3 {
		t.Fatalf("log has %d entries; want 3", len(saved[1].Log))
	}
	if e, err := table.DecodeEntry(saved[1].Log[2]); err != nil || e.Seat != 0 || e.Action[0] != 3 {
		t.Fatalf("entry 3 decodes to %+v, %v", e, err)
	}

	if r, _ := s.Room("OV"); r.Status != StatusFinished || r.Variant != "hard" || r.Engine().Status != table.StatusOver {
		t.Fatalf("over room stored as %q variant %q", r.Status, r.Variant)
	}
	if r, _ := s.Room("CL"); r.Status != StatusAbandoned || r.Engine().Status != table.StatusClosed {
		t.Fatalf("closed room without result stored as %q", r.Status)
	}
	ann, err := s.Player("SHA256:ann")
	want := []StatLine{{Game: "grizzled", Variant: "hard", Players: 3, Played: 1, Won: 1}}
	if err != nil || !reflect.DeepEqual(ann.Stats, want) {
		t.Fatalf("ann's stats %+v, %v; want %+v", ann.Stats, err, want)
	}
}

// Who made a table outlives a restart beside who hosts it now: the maker
// of a table whose host passed on is still never removed from it.
func TestTheTablesMakerOutlivesARestart(t *testing.T) {
	in := engineRoom("K7QX", table.StatusWaiting)
	in.Host, in.Creator = "SHA256:bob", "SHA256:ann"
	if out := FromEngine(in).Engine(); out.Host != in.Host || out.Creator != in.Creator {
		t.Fatalf("came back hosted by %q, made by %q", out.Host, out.Creator)
	}
}
