package persistence

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"bivouac/game"
)

// tickClock returns a clock that moves one second per reading, so stamped
// times are distinct and ordered.
func finished(rec RoomRecord, winners ...game.Seat) RoomRecord {
	rec.Status = StatusFinished
	rec.Result = &game.Result{Outcome: "win", Winners: winners, Summary: game.Raw("the war is over")}
	return rec
}

// fill puts one of every record kind in s.
func fill(t *testing.T, s *Bolt) {
	t.Helper()
	mustPutRoom(t, s, testRoom("live"))
	for seq := uint64(1); seq <= 25; seq++ {
		if err := s.Append("live", seq, entry("live", seq)); err != nil {
			t.Fatal(err)
		}
	}
	mustPutRoom(t, s, testRoom("done"))
	if err := s.Append("done", 1, []byte("only")); err != nil {
		t.Fatal(err)
	}
	mustPutRoom(t, s, finished(testRoom("done"), 0))
	if _, err := s.CreateCampaign(Campaign{ID: "somme", Members: []string{"SHA256:ann"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordCampaignResult("somme", "done", 0, []string{"SHA256:ann"}, true, 30, true); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReview("done", json.RawMessage(`{"decisions":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
}

// dump reads everything back through the API, for comparing two stores.
type dumpT struct {
	Rooms     []RoomRecord
	Logs      map[string][][]byte
	Ann       Profile
	Campaigns []Campaign
	History   []RoomRecord
	Review    string
}

func dump(t *testing.T, s *Bolt) dumpT {
	t.Helper()
	var d dumpT
	var err error
	if d.Rooms, err = s.Rooms(); err != nil {
		t.Fatal(err)
	}
	d.Logs = map[string][][]byte{}
	for _, r := range d.Rooms {
		if d.Logs[r.ID], err = s.Log(r.ID); err != nil {
			t.Fatal(err)
		}
	}
	if d.Ann, err = s.Player("SHA256:ann"); err != nil {
		t.Fatal(err)
	}
	if d.Campaigns, err = s.Campaigns("SHA256:ann"); err != nil {
		t.Fatal(err)
	}
	if d.History, err = s.FinishedGames("SHA256:ann", 0); err != nil {
		t.Fatal(err)
	}
	review, err := s.Review("done")
	if err != nil {
		t.Fatal(err)
	}
	d.Review = string(review)
	return d
}

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	s := openAt(t, path)
	fill(t, s)
	before := dump(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path)
	after := dump(t, s)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("reopen changed data:\nbefore %+v\nafter  %+v", before, after)
	}
	if len(after.Logs["live"]) != 25 || !after.Ann.Veteran || len(after.History) != 1 {
		t.Fatalf("dump is missing data: %+v", after)
	}
	// The log continues where it stopped.
	if err := s.Append("live", 26, entry("live", 26)); err != nil {
		t.Fatal(err)
	}
}

func TestBackupOpensWithSameData(t *testing.T) {
	dir := t.TempDir()
	s := openAt(t, filepath.Join(dir, "live.db"))
	fill(t, s)
	want := dump(t, s)

	var buf bytes.Buffer
	n, err := s.Backup(&buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("Backup = %d, %v (buffer %d bytes)", n, err, buf.Len())
	}
	streamed := filepath.Join(dir, "streamed.db")
	if err := os.WriteFile(streamed, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	copyPath := filepath.Join(dir, "backup.db")
	if err := os.WriteFile(copyPath, []byte("an older backup"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.BackupFile(copyPath); err != nil { // replaces the old one
		t.Fatal(err)
	}
	fi, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v; want 0600", fi.Mode().Perm())
	}
	if err := s.BackupFile(s.Path()); err == nil {
		t.Fatal("BackupFile over the live database succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("directory after backups: %v; want live, streamed, backup only", entries)
	}

	// Both copies open (while the live store stays open) with the same data.
	for _, p := range []string{streamed, copyPath} {
		b := openAt(t, p)
		if got := dump(t, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s differs:\n got %+v\nwant %+v", filepath.Base(p), got, want)
		}
		if err := b.Check(); err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
	}
}
