package persistence

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bivouac/game"
)

// tickClock returns a clock that moves one second per reading, so stamped
// times are distinct and ordered.
func tickClock() func() time.Time {
	var n atomic.Int64
	base := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	return func() time.Time { return base.Add(time.Duration(n.Add(1)) * time.Second) }
}

func openClocked(t *testing.T, path string) *Bolt {
	t.Helper()
	opts := testOptions
	opts.Clock = tickClock()
	s, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func finished(rec RoomRecord, winners ...game.Seat) RoomRecord {
	rec.Status = StatusFinished
	rec.Result = &game.Result{Outcome: "win", Winners: winners, Summary: game.Raw("the war is over")}
	return rec
}

func TestRoomRoundTrip(t *testing.T) {
	s := openTemp(t)
	in := testRoom("r1")
	in.Private, in.CampaignID, in.Title, in.Seq = true, "c1", game.Raw("Ann's table"), 7
	in.Allowed = []string{"SHA256:ann", "SHA256:bob"}
	in.Seats = append(in.Seats, SeatRecord{Seat: 2, Identity: "guest:QX7", Name: "visitor", Guest: true, Badge: "veteran"})
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
	time.Sleep(time.Millisecond)
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
	if _, err := s.Room("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Room(nope): %v; want ErrNotFound", err)
	}
}

func TestPutRoomRefusesInvalid(t *testing.T) {
	s := openTemp(t)
	bad := map[string]RoomRecord{
		"empty id":                {Status: StatusWaiting},
		"NUL in id":               {ID: "a\x00b", Status: StatusWaiting},
		"unknown status":          {ID: "r", Status: "paused"},
		"finished with no result": {ID: "r", Status: StatusFinished},
	}
	for name, rec := range bad {
		if _, err := s.PutRoom(rec); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v; want ErrInvalid", name, err)
		}
	}
	if all, _ := s.Rooms(); len(all) != 0 {
		t.Fatalf("refused rooms were stored: %v", all)
	}
}

func ids(rooms []RoomRecord) []string {
	var out []string
	for _, r := range rooms {
		out = append(out, r.ID)
	}
	return out
}

func TestRoomsByStatusAndDelete(t *testing.T) {
	s := openTemp(t)
	for id, st := range map[string]Status{"a": StatusWaiting, "b": StatusPlaying, "c": StatusPlaying, "d": StatusAbandoned} {
		rec := testRoom(id)
		rec.Status = st
		mustPutRoom(t, s, rec)
	}
	mustPutRoom(t, s, finished(testRoom("e"), 0))

	check := func(want []string, st ...Status) {
		t.Helper()
		got, err := s.Rooms(st...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(got), want) {
			t.Fatalf("Rooms(%v) = %v; want %v", st, ids(got), want)
		}
	}
	check([]string{"b", "c", "a"}, StatusPlaying, StatusWaiting)
	check([]string{"e"}, StatusFinished)
	check([]string{"a", "b", "c", "d", "e"})

	// A status change moves the room between index entries.
	b, _ := s.Room("b")
	b.Status = StatusAbandoned
	mustPutRoom(t, s, b)
	check([]string{"c"}, StatusPlaying)
	check([]string{"b", "d"}, StatusAbandoned)

	// Delete takes the record, log and index entries.
	if err := s.Append("e", 1, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRoom("e"); err != nil {
		t.Fatal(err)
	}
	check(nil, StatusFinished)
	if _, err := s.Room("e"); !errors.Is(err, ErrNotFound) {
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
	if err := s.DeleteRoom("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("DeleteRoom(nope): %v", err)
	}
}

func TestFinishedRoomsCountOnceAndHistory(t *testing.T) {
	s := openClocked(t, filepath.Join(t.TempDir(), "b.db"))
	put := func(id, variant string, winners ...game.Seat) RoomRecord {
		r := testRoom(id)
		r.Variant = variant
		r.Seats = []SeatRecord{
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
	back.Status = StatusPlaying
	if _, err := s.PutRoom(back); !errors.Is(err, ErrInvalid) {
		t.Fatalf("un-finishing a room: %v; want ErrInvalid", err)
	}

	ann, err := s.Player("SHA256:ann")
	if err != nil {
		t.Fatal(err)
	}
	want := []StatLine{
		{Game: "grizzled", Variant: "normal", Players: 4, Played: 2, Won: 1},
		{Game: "grizzled", Variant: "hard", Players: 4, Played: 1, Won: 0},
	}
	if !reflect.DeepEqual(ann.Stats, want) {
		t.Fatalf("ann's stats %+v; want %+v", ann.Stats, want)
	}
	if _, err := s.Player("guest:K2"); !errors.Is(err, ErrNotFound) {
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

func TestPlayerRoundTripAndUpdate(t *testing.T) {
	s := openTemp(t)
	const fp = "SHA256:abcdef"
	if _, err := s.Player(fp); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown player: %v", err)
	}
	seen := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	p, err := s.UpdatePlayer(fp, func(p *Profile) error {
		p.Name = "Zoë Łukasiewicz"
		p.LastSeen = seen
		p.Stat("werewolf", "", 12).add(true)
		p.Fingerprint = "SHA256:forged" // ignored
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.Fingerprint != fp || p.FirstSeen.IsZero() {
		t.Fatalf("UpdatePlayer returned %+v", p)
	}
	got, err := s.Player(fp)
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Fatalf("Player = %+v, %v; want %+v", got, err, p)
	}

	boom := errors.New("boom")
	if _, err := s.UpdatePlayer(fp, func(p *Profile) error { p.Name = "lost"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if got, _ := s.Player(fp); got.Name != "Zoë Łukasiewicz" {
		t.Fatalf("a failed update was stored: %q", got.Name)
	}
	if p, err := s.Seen(fp, "zoe"); err != nil || p.Name != "Zoë Łukasiewicz" || !p.LastSeen.After(seen) {
		t.Fatalf("Seen on a named profile = %+v, %v; want the chosen name kept, LastSeen now", p, err)
	}
	if p, err := s.Seen("SHA256:new", "bob"); err != nil || p.Name != "bob" || p.LastSeen.IsZero() || p.FirstSeen.IsZero() {
		t.Fatalf("Seen on a new profile = %+v, %v; want name bob, stamps set", p, err)
	}
	if _, err := s.UpdatePlayer("", func(*Profile) error { return nil }); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty fingerprint: %v", err)
	}
}

func TestCampaignsMembershipAndUpdate(t *testing.T) {
	s := openTemp(t)
	c, err := s.CreateCampaign(Campaign{Name: "Somme", Members: []string{"SHA256:ann", "SHA256:bob"}, Trials: 25})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == "" || c.Created.IsZero() {
		t.Fatalf("CreateCampaign returned %+v", c)
	}
	if got, err := s.Campaign(c.ID); err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("Campaign = %+v, %v; want %+v", got, err, c)
	}
	if _, err := s.CreateCampaign(Campaign{ID: c.ID}); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate ID: %v", err)
	}
	if _, err := s.CreateCampaign(Campaign{ID: "dup", Members: []string{"SHA256:x", "SHA256:x"}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("member twice: %v", err)
	}
	other, _ := s.CreateCampaign(Campaign{ID: "verdun", Name: "Verdun", Members: []string{"SHA256:bob"}})

	list := func(fp string) []string {
		cs, err := s.Campaigns(fp)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	if got := list("SHA256:bob"); !slices.Equal(got, []string{c.ID, other.ID}) {
		t.Fatalf("bob's campaigns %v", got)
	}
	if got := list("SHA256:nobody"); len(got) != 0 {
		t.Fatalf("nobody's campaigns %v", got)
	}

	// Swap ann for cid; profiles follow in the same transaction.
	up, err := s.UpdateCampaign(c.ID, func(c *Campaign) error {
		c.Members = []string{"SHA256:bob", "SHA256:cid"}
		c.Name = "Somme II"
		c.ID = "renamed" // ignored
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if up.ID != c.ID || up.Name != "Somme II" {
		t.Fatalf("UpdateCampaign returned %+v", up)
	}
	if got := list("SHA256:ann"); len(got) != 0 {
		t.Fatalf("ann still lists %v", got)
	}
	if got := list("SHA256:cid"); !slices.Equal(got, []string{c.ID}) {
		t.Fatalf("cid lists %v", got)
	}
	boom := errors.New("boom")
	if _, err := s.UpdateCampaign(c.ID, func(c *Campaign) error { c.Members = nil; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if got := list("SHA256:cid"); len(got) != 1 {
		t.Fatal("a failed campaign update changed memberships")
	}
	if _, err := s.UpdateCampaign("nope", func(*Campaign) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown campaign: %v", err)
	}
}

func TestRecordCampaignResultVeteranSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	s := openClocked(t, path)
	members := []string{"SHA256:ann", "SHA256:bob", "SHA256:cid", "SHA256:dee"}
	c, err := s.CreateCampaign(Campaign{ID: "somme", Members: members, Trials: 26})
	if err != nil {
		t.Fatal(err)
	}
	// A loss first: not veteran.
	if _, err := s.RecordCampaignResult(c.ID, "room1", 26, members[:3], false, 27, false); err != nil {
		t.Fatal(err)
	}
	// The winning mission, played by three of the four members.
	played := []string{"SHA256:ann", "SHA256:bob", "SHA256:cid"}
	got, err := s.RecordCampaignResult(c.ID, "room2", 27, played, true, 30, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room2", 27, played, true, 30, true); !errors.Is(err, ErrExists) {
		t.Fatalf("recording a mission twice: %v; want ErrExists", err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "", 27, played, true, 30, true); !errors.Is(err, ErrInvalid) {
		t.Fatalf("no room ID: %v; want ErrInvalid", err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room9", 27, []string{""}, true, 30, true); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty fingerprint: %v; want ErrInvalid", err)
	}
	if _, err := s.RecordCampaignResult("nope", "room3", 27, played, true, 30, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown campaign: %v", err)
	}
	bob, _ := s.Player("SHA256:bob")
	since := bob.VeteranSince
	// A mission opened before the campaign moved on counts for nothing:
	// neither an older mission's loss nor a second table's win.
	if _, err := s.RecordCampaignResult(c.ID, "room0", 26, played, false, 27, false); !errors.Is(err, ErrStale) {
		t.Fatalf("a result for a mission already played: %v; want ErrStale", err)
	}
	if _, err := s.RecordCampaignResult(c.ID, "room3", 30, played[:1], true, 30, true); !errors.Is(err, ErrStale) {
		t.Fatalf("a result after the campaign was won: %v; want ErrStale", err)
	}
	s.Close()

	s = openAt(t, path)
	c, err = s.Campaign("somme")
	if err != nil {
		t.Fatal(err)
	}
	if c.Trials != 30 || c.Wins != 1 || c.Losses != 1 || !c.Veteran || len(c.History) != 2 {
		t.Fatalf("campaign after reopen %+v", c)
	}
	m := c.History[1]
	if m.RoomID != "room2" || !m.Won || m.Trials != 30 || !slices.Equal(m.Players, played) || !m.When.Equal(got.History[1].When) {
		t.Fatalf("mission record %+v", m)
	}
	for _, fp := range members {
		p, err := s.Player(fp)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Contains(played, fp)
		if p.Veteran != want {
			t.Errorf("%s veteran = %v; want %v", fp, p.Veteran, want)
		}
		if want && p.VeteranSince.IsZero() {
			t.Errorf("%s has no VeteranSince", fp)
		}
		if !want && !p.VeteranSince.IsZero() {
			t.Errorf("%s has VeteranSince but is no veteran", fp)
		}
	}
	if ann, _ := s.Player("SHA256:ann"); !ann.VeteranSince.Equal(since) {
		t.Errorf("ann's VeteranSince moved from %v to %v", since, ann.VeteranSince)
	}
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
}

// dump reads everything back through the API, for comparing two stores.
type dumpT struct {
	Rooms     []RoomRecord
	Logs      map[string][][]byte
	Ann       Profile
	Campaigns []Campaign
	History   []RoomRecord
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

func TestEachPlayerVisitsEveryProfile(t *testing.T) {
	s := openTemp(t)
	for _, fp := range []string{"SHA256:b", "SHA256:a", "SHA256:c"} {
		if _, err := s.Seen(fp, "n"+fp[7:]); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := s.EachPlayer(func(p Profile) error { got = append(got, p.Fingerprint+"="+p.Name); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "SHA256:a=na,SHA256:b=nb,SHA256:c=nc" {
		t.Fatalf("EachPlayer visited %v", got)
	}
	stop := errors.New("stop")
	n := 0
	if err := s.EachPlayer(func(Profile) error { n++; return stop }); err != stop || n != 1 {
		t.Fatalf("EachPlayer did not stop at the first error: %v after %d", err, n)
	}
}
