package storetest

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/table/tabletest"
)

func testRoom(id string) persistence.RoomRecord {
	return persistence.RoomRecord{
		ID:   id,
		Code: "AB" + id,
		Setup: game.Setup{
			Game:    "grizzled",
			Names:   []string{"ann", "bot"},
			Options: []byte(`{"difficulty":"normal"}`),
		},
		Seed: 0xdeadbeefcafef00d,
		Seats: []persistence.SeatRecord{
			{Seat: 0, Identity: "SHA256:ann", Name: "ann"},
			{Seat: 1, Name: "bot", Bot: "easy"},
		},
		Status:  persistence.StatusPlaying,
		Host:    "SHA256:ann",
		Options: table.Options{BotLevel: "easy"},
	}
}

func mustPutRoom(t testing.TB, s persistence.Store, rec persistence.RoomRecord) persistence.RoomRecord {
	t.Helper()
	got, err := s.PutRoom(rec)
	if err != nil {
		t.Fatalf("PutRoom(%s): %v", rec.ID, err)
	}
	return got
}

func finished(rec persistence.RoomRecord, winners ...game.Seat) persistence.RoomRecord {
	rec.Status = persistence.StatusFinished
	rec.Result = &game.Result{Outcome: "win", Winners: winners, Summary: game.Raw("the war is over")}
	return rec
}

func ids(rooms []persistence.RoomRecord) []string {
	var out []string
	for _, r := range rooms {
		out = append(out, r.ID)
	}
	return out
}

func testRoomRoundTrip(t *testing.T, open Opener) {
	s := open(t, tickClock())
	in := testRoom("r1")
	in.Title, in.Seq = game.Raw("Ann's table"), 7
	in.Options = tabletest.AllOptions() // every option of the table, whatever they are
	in.Removed = []string{"SHA256:troll", "guest:0123abcd"}
	in.Creator = "SHA256:bob" // the table passed from its maker to ann
	in.Started = time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	in.Waiting, in.Deadline = []string{"SHA256:bob"}, time.Date(2026, 3, 1, 21, 30, 0, 0, time.UTC)
	in.Seats = append(in.Seats, persistence.SeatRecord{Seat: 2, Identity: "guest:QX7", Name: "visitor", Guest: true, Badge: "veteran"})
	stored := mustPutRoom(t, s, in)
	if stored.Created.IsZero() || !stored.Updated.Equal(stored.Created) {
		t.Fatalf("stamps: created %v updated %v", stored.Created, stored.Updated)
	}
	got, err := s.Room("r1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, stored) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, stored)
	}
	// Every field survives: clear the stamps and compare with the input.
	got.Created, got.Updated = time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, in) {
		t.Fatalf("fields lost:\n got %+v\nwant %+v", got, in)
	}

	// Replacing keeps Created, moves Updated, keeps the log.
	if err := s.Append("r1", 1, []byte("a1")); err != nil {
		t.Fatal(err)
	}
	again := stored
	again.Created = time.Time{}
	again = finished(again, 0)
	again = mustPutRoom(t, s, again)
	if !again.Created.Equal(stored.Created) || !again.Updated.After(stored.Updated) {
		t.Fatalf("update stamps: created %v→%v updated %v→%v", stored.Created, again.Created, stored.Updated, again.Updated)
	}
	if log, _ := s.Log("r1"); len(log) != 1 {
		t.Fatalf("PutRoom lost the log: %q", log)
	}
	if _, err := s.Room("nope"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("Room(nope): %v; want ErrNotFound", err)
	}
}

func testPutRoomRefusesInvalid(t *testing.T, open Opener) {
	s := open(t, tickClock())
	bad := map[string]persistence.RoomRecord{
		"empty id":                {Status: persistence.StatusWaiting},
		"NUL in id":               {ID: "a\x00b", Status: persistence.StatusWaiting},
		"unknown status":          {ID: "r", Status: "paused"},
		"finished with no result": {ID: "r", Status: persistence.StatusFinished},
	}
	for name, rec := range bad {
		if _, err := s.PutRoom(rec); !errors.Is(err, persistence.ErrInvalid) {
			t.Errorf("%s: %v; want ErrInvalid", name, err)
		}
	}
	if all, _ := s.Rooms(); len(all) != 0 {
		t.Fatalf("refused rooms were stored: %v", all)
	}
}

func testRoomsByStatusAndDelete(t *testing.T, open Opener) {
	s := open(t, tickClock())
	for id, st := range map[string]persistence.Status{"a": persistence.StatusWaiting, "b": persistence.StatusPlaying, "c": persistence.StatusPlaying, "d": persistence.StatusAbandoned} {
		rec := testRoom(id)
		rec.Status = st
		mustPutRoom(t, s, rec)
	}
	mustPutRoom(t, s, finished(testRoom("e"), 0))

	check := func(want []string, st ...persistence.Status) {
		t.Helper()
		got, err := s.Rooms(st...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(got), want) {
			t.Fatalf("Rooms(%v) = %v; want %v", st, ids(got), want)
		}
	}
	check([]string{"b", "c", "a"}, persistence.StatusPlaying, persistence.StatusWaiting)
	check([]string{"e"}, persistence.StatusFinished)
	check([]string{"a", "b", "c", "d", "e"})

	// A status change moves the room between index entries.
	b, _ := s.Room("b")
	b.Status = persistence.StatusAbandoned
	mustPutRoom(t, s, b)
	check([]string{"c"}, persistence.StatusPlaying)
	check([]string{"b", "d"}, persistence.StatusAbandoned)

	// Delete takes the record, log and index entries.
	if err := s.Append("e", 1, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRoom("e"); err != nil {
		t.Fatal(err)
	}
	check(nil, persistence.StatusFinished)
	if _, err := s.Room("e"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("deleted room: %v", err)
	}
	if games, _ := s.FinishedGames("SHA256:ann", 0); len(games) != 0 {
		t.Fatalf("deleted room still in history: %v", ids(games))
	}
	// A new room under the old ID starts a fresh log.
	mustPutRoom(t, s, testRoom("e"))
	if err := s.Append("e", 1, []byte("fresh")); err != nil {
		t.Fatalf("fresh log after delete: %v", err)
	}
	if err := s.DeleteRoom("nope"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("DeleteRoom(nope): %v", err)
	}
}

func testFinishedRoomsCountOnceAndHistory(t *testing.T, open Opener) {
	s := open(t, tickClock())
	put := func(id, variant string, winners ...game.Seat) persistence.RoomRecord {
		r := testRoom(id)
		r.Variant = variant
		r.Seats = []persistence.SeatRecord{
			{Seat: 0, Identity: "SHA256:ann", Name: "ann"},
			{Seat: 1, Identity: "SHA256:bob", Name: "bob"},
			{Seat: 2, Identity: "guest:K2", Name: "guest", Guest: true},
			{Seat: 3, Name: "bot", Bot: "easy"},
		}
		r = mustPutRoom(t, s, r) // playing
		if !r.Finished.IsZero() {
			t.Fatalf("a playing room has Finished %v", r.Finished)
		}
		return mustPutRoom(t, s, finished(r, winners...))
	}
	g1 := put("g1", "normal", 0, 1) // cooperative win
	put("g2", "normal")             // loss
	put("g3", "hard", 1)

	// Saving a finished room again counts nothing and keeps its place in history.
	again := mustPutRoom(t, s, g1)
	if !again.Finished.Equal(g1.Finished) || !again.Updated.After(g1.Updated) {
		t.Fatalf("re-put finished room: finished %v→%v, updated %v→%v", g1.Finished, again.Finished, g1.Updated, again.Updated)
	}
	back := g1
	back.Status = persistence.StatusPlaying
	if _, err := s.PutRoom(back); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("un-finishing a room: %v; want ErrInvalid", err)
	}

	ann, err := s.Player("SHA256:ann")
	if err != nil {
		t.Fatal(err)
	}
	want := []persistence.StatLine{
		{Game: "grizzled", Variant: "normal", Players: 4, Played: 2, Won: 1},
		{Game: "grizzled", Variant: "hard", Players: 4, Played: 1, Won: 0},
	}
	if !reflect.DeepEqual(ann.Stats, want) {
		t.Fatalf("ann's stats %+v; want %+v", ann.Stats, want)
	}
	if _, err := s.Player("guest:K2"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("a guest got a profile: %v", err)
	}

	games, err := s.FinishedGames("SHA256:bob", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(games), []string{"g3", "g2", "g1"}) {
		t.Fatalf("bob's history %v; want newest first g3 g2 g1", ids(games))
	}
	if games, _ := s.FinishedGames("SHA256:bob", 2); !slices.Equal(ids(games), []string{"g3", "g2"}) {
		t.Fatalf("limit 2: %v", ids(games))
	}
	// Fingerprints sorting either side of bob's: scans stop at their prefix.
	mustPutRoom(t, s, finished(testRoom("zz"), 0))
	for _, fp := range []string{"SHA256:anm", "SHA256:bo", "SHA256:bobby"} {
		if games, _ := s.FinishedGames(fp, 0); len(games) != 0 {
			t.Fatalf("%s has history: %v", fp, ids(games))
		}
	}
	if games, _ := s.FinishedGames("SHA256:ann", 0); !slices.Equal(ids(games), []string{"zz", "g3", "g2", "g1"}) {
		t.Fatalf("ann's history %v", ids(games))
	}
}

func testReviewsAreKeptWithFinishedRooms(t *testing.T, open Opener) {
	s := open(t, tickClock())
	mustPutRoom(t, s, testRoom("live"))
	if err := s.PutReview("live", json.RawMessage(`{"x":1}`)); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("review of a game in progress: %v; want ErrInvalid", err)
	}
	if err := s.PutReview("nope", json.RawMessage(`{}`)); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("review of no room: %v", err)
	}
	mustPutRoom(t, s, finished(testRoom("done")))
	if err := s.PutReview("done", json.RawMessage(`{"x`)); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("a review that is not JSON: %v", err)
	}
	if _, err := s.Review("done"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("no review yet: %v", err)
	}
	if err := s.PutReview("done", json.RawMessage(`{"decisions":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Review("done")
	if err != nil || string(got) != `{"decisions":[1,2]}` {
		t.Fatalf("review %s, %v", got, err)
	}
	if err := s.DeleteRoom("done"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Review("done"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("review outlived its room: %v", err)
	}
}

// A finished room retired to a new ID keeps its game there (record, log,
// review, its players' histories, their stats counted once), and its old
// ID, its public code, is free for a new room with a log of its own.
func testRetiredRoomKeepsItsGame(t *testing.T, open Opener) {
	s := open(t, tickClock())
	if err := s.RetireRoom("none", "none-1"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("retiring no room: %v", err)
	}
	mustPutRoom(t, s, testRoom("live"))
	if err := s.RetireRoom("live", "live-1"); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("retiring a game in progress: %v; want ErrInvalid", err)
	}
	rec := mustPutRoom(t, s, testRoom("ABCD"))
	for i, e := range []string{"one", "two", "three"} {
		if err := s.Append("ABCD", uint64(i+1), []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	done := mustPutRoom(t, s, finished(rec, 0))
	if err := s.PutReview("ABCD", json.RawMessage(`{"r":1}`)); err != nil {
		t.Fatal(err)
	}
	mustPutRoom(t, s, finished(testRoom("taken")))
	if err := s.RetireRoom("ABCD", "taken"); !errors.Is(err, persistence.ErrExists) {
		t.Fatalf("retiring onto another room: %v; want ErrExists", err)
	}
	if err := s.RetireRoom("ABCD", "ABCD7K2M"); err != nil {
		t.Fatal(err)
	}

	got, err := s.Room("ABCD7K2M")
	if err != nil || got.Code != done.Code || got.Status != persistence.StatusFinished || !got.Finished.Equal(done.Finished) {
		t.Fatalf("retired room %+v, %v", got, err)
	}
	if log, err := s.Log("ABCD7K2M"); err != nil || len(log) != 3 || string(log[2]) != "three" {
		t.Fatalf("retired log %q, %v", log, err)
	}
	if r, err := s.Review("ABCD7K2M"); err != nil || string(r) != `{"r":1}` {
		t.Fatalf("retired review %s, %v", r, err)
	}
	games, err := s.FinishedGames("SHA256:ann", 0)
	if err != nil || !slices.Contains(ids(games), "ABCD7K2M") || slices.Contains(ids(games), "ABCD") {
		t.Fatalf("ann's history %v, %v", ids(games), err)
	}
	if p, err := s.Player("SHA256:ann"); err != nil || p.Stats[0].Played != 2 {
		t.Fatalf("ann's stats %+v, %v: want two games, counted once each", p.Stats, err)
	}

	if _, err := s.Room("ABCD"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("the old ID still holds a room: %v", err)
	}
	mustPutRoom(t, s, testRoom("ABCD"))
	if log, err := s.Log("ABCD"); err != nil || len(log) != 0 {
		t.Fatalf("a new room under the freed code has the old log %q, %v", log, err)
	}
	if err := s.Append("ABCD", 1, []byte("fresh")); err != nil {
		t.Fatal(err)
	}
	if log, _ := s.Log("ABCD7K2M"); len(log) != 3 {
		t.Fatalf("the retired log changed: %q", log)
	}
}
