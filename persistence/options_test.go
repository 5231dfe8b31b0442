package persistence

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/table/tabletest"
)

// A room stored before the table's options were one value
// (testdata/room-before-options.json, as both stores wrote it) reads with
// every option as it was, and a room stored now has the same shape: each
// option at the top level of the record under its old name.
func TestARoomStoredBeforeOptionsReadsTheSame(t *testing.T) {
	old, err := os.ReadFile("testdata/room-before-options.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec RoomRecord
	if err := json.Unmarshal(old, &rec); err != nil {
		t.Fatal(err)
	}
	want := table.Options{Private: true, BotLevel: "strong", Campaign: "C4MP41GN", Allowed: []string{"SHA256:ada", "SHA256:bob"},
		NoTakeover: true, AbandonAfter: 10 * time.Minute, TurnClock: 90 * time.Second, Practice: true, Hints: true}
	if !reflect.DeepEqual(rec.Options, want) {
		t.Errorf("options read as %+v, want %+v", rec.Options, want)
	}
	if rec.Host != "SHA256:ada" || rec.First != 2 || len(rec.Removed) != 1 || rec.Timer == nil || len(rec.Seats) != 3 {
		t.Errorf("the rest of the record read as %+v", rec)
	}
	now, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	if err := json.Unmarshal(old, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(now, &after); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("a room is stored in another shape now:\nbefore %v\n after %v", before, after)
	}
}

// The room actor's record and the stored one carry the same options,
// every one of them, both ways.
func TestEveryOptionCrossesBetweenTheActorAndTheStore(t *testing.T) {
	in := table.RoomRecord{Code: "ABCD", Game: "coin", Status: table.StatusPlaying, Options: tabletest.AllOptions()}
	stored := FromEngine(in)
	if !reflect.DeepEqual(stored.Options, in.Options) {
		t.Errorf("stored with options %+v, want %+v", stored.Options, in.Options)
	}
	if back := stored.Engine(); !reflect.DeepEqual(back.Options, in.Options) {
		t.Errorf("read back with options %+v, want %+v", back.Options, in.Options)
	}
}
