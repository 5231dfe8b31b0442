package persistence

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// A seat goes through the journal and back whole: a field added on one
// side only would be dropped silently by the conversion.
func TestSeatRecordsConvertWhole(t *testing.T) {
	if a, b := reflect.TypeFor[table.SeatRecord]().NumField(), reflect.TypeFor[SeatRecord]().NumField(); a != b {
		t.Fatalf("table.SeatRecord has %d fields, persistence.SeatRecord %d: convert the new one", a, b)
	}
	in := table.RoomRecord{Code: "ABCD", Game: "grizzled", Status: table.StatusPlaying, Seats: []table.SeatRecord{
		{Seat: 0, Identity: "SHA256:x", Name: "ann", Badge: "veteran", Left: true, Gender: game.Feminine},
		{Seat: 1, Name: "bot", Bot: "easy"},
		{Seat: 2, Identity: "guest:y", Name: "guest-1", Guest: true},
	}}
	if out := FromEngine(in).Engine(); !reflect.DeepEqual(out.Seats, in.Seats) {
		t.Fatalf("seats came back as %+v, want %+v", out.Seats, in.Seats)
	}
}

// Rooms saved before badges marked veterans with a flag.
func TestOldVeteranSeatsReadAsBadges(t *testing.T) {
	var s SeatRecord
	if err := json.Unmarshal([]byte(`{"seat":1,"name":"vera","identity":"SHA256:v","veteran":true}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Badge != "veteran" || s.Name != "vera" || s.Seat != 1 {
		t.Fatalf("read %+v", s)
	}
	b, _ := json.Marshal(s)
	if string(b) != `{"seat":1,"identity":"SHA256:v","name":"vera","badge":"veteran"}` {
		t.Fatalf("written as %s", b)
	}
}

// A correspondence table's pace, start and whose move it is go through
// the journal and back.
func TestRoomRecordKeepsItsPace(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	in := table.RoomRecord{Code: "K7QX", Game: "grizzled", Status: table.StatusPlaying,
		Options: table.Options{Pace: table.Pace{Correspondence: true, Decision: time.Hour}}, Started: at, Waiting: []string{"SHA256:bob"}, Deadline: at.Add(time.Hour)}
	out := FromEngine(in).Engine()
	if out.Pace != in.Pace || !out.Started.Equal(at) || !reflect.DeepEqual(out.Waiting, in.Waiting) || !out.Deadline.Equal(in.Deadline) {
		t.Fatalf("came back as %+v", out)
	}
}
