package persistence

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// testOptions keep fsync on and the default batch delay; only the lock
// timeout is short.
var testOptions = Options{Timeout: 200 * time.Millisecond}

// openAt opens (or creates) a store at path; the test closes it.
func openAt(t testing.TB, path string) *Bolt {
	t.Helper()
	s, err := Open(path, testOptions)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openTemp(t testing.TB) *Bolt {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "bivouac.db"))
}

func testRoom(id string) RoomRecord {
	return RoomRecord{
		ID:   id,
		Code: "AB" + id,
		Setup: game.Setup{
			Game:    "grizzled",
			Names:   []string{"ann", "bot"},
			Options: []byte(`{"difficulty":"normal"}`),
		},
		Seed: 0xdeadbeefcafef00d,
		Seats: []SeatRecord{
			{Seat: 0, Identity: "SHA256:ann", Name: "ann"},
			{Seat: 1, Name: "bot", Bot: "easy"},
		},
		Status:  StatusPlaying,
		Host:    "SHA256:ann",
		Options: table.Options{BotLevel: "easy"},
	}
}

func mustPutRoom(t testing.TB, s *Bolt, rec RoomRecord) RoomRecord {
	t.Helper()
	got, err := s.PutRoom(rec)
	if err != nil {
		t.Fatalf("PutRoom(%s): %v", rec.ID, err)
	}
	return got
}

func TestOpenCreatesBivouacFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bivouac.db")
	s := openAt(t, path)
	if err := s.Check(); err != nil {
		t.Fatalf("Check on a fresh file: %v", err)
	}
	s.Close()

	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "bivouac.db" {
		t.Fatalf("directory holds %v; want only bivouac.db (no temporary left over)", entries)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v; want 0600", fi.Mode().Perm())
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		v, err := readVersion(tx)
		if err != nil || v != schemaVersion() {
			t.Errorf("readVersion = %d, %v; want %d", v, err, schemaVersion())
		}
		return nil
	})
}

// writeFile puts content at path and returns a check that it is unchanged.
func badFile(t *testing.T, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bivouac.db")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// bivouacFile makes a real database with some data and returns its bytes.
func bivouacFile(t *testing.T) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bivouac.db")
	s, err := Open(path, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		id := "room" + string(rune('a'+i))
		if _, err := s.PutRoom(testRoom(id)); err != nil {
			t.Fatal(err)
		}
		for seq := uint64(1); seq <= 5; seq++ {
			if err := s.Append(id, seq, bytes.Repeat([]byte{byte(seq)}, 2000)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

func TestOpenRefusesBadFiles(t *testing.T) {
	random := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	_, good := bivouacFile(t)
	if len(good) < 64<<10 {
		t.Fatalf("test database is only %d bytes; want a multi-page file", len(good))
	}

	foreign := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "other.db")
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		db.Update(func(tx *bolt.Tx) error {
			b, _ := tx.CreateBucket([]byte("widgets"))
			return b.Put([]byte("gear"), []byte("42"))
		})
		db.Close()
		return path
	}
	// withMeta rewrites a real store's meta bucket with bbolt directly.
	withMeta := func(edit func(meta *bolt.Bucket) error) func(t *testing.T) string {
		return func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "bivouac.db")
			s := openAt(t, path)
			s.Close()
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *bolt.Tx) error { return edit(tx.Bucket(bktMeta)) }); err != nil {
				t.Fatal(err)
			}
			db.Close()
			return path
		}
	}

	tests := []struct {
		name string
		make func(t *testing.T) string
		want error
	}{
		{"empty file", func(t *testing.T) string { return badFile(t, nil) }, ErrNotBivouac},
		{"random bytes", func(t *testing.T) string { return badFile(t, random) }, ErrNotBivouac},
		{"text file", func(t *testing.T) string { return badFile(t, []byte("hello, world\n")) }, ErrNotBivouac},
		{"foreign bbolt file", foreign, ErrNotBivouac},
		{"truncated to half", func(t *testing.T) string { return badFile(t, good[:len(good)/2]) }, ErrCorrupt},
		{"truncated to one page", func(t *testing.T) string { return badFile(t, good[:4096]) }, ErrCorrupt},
		{"truncated to 3000 bytes", func(t *testing.T) string { return badFile(t, good[:3000]) }, ErrCorrupt},
		{"truncated to 100 bytes", func(t *testing.T) string { return badFile(t, good[:100]) }, ErrCorrupt},
		{"meta pages zeroed", func(t *testing.T) string {
			b := bytes.Clone(good)
			clear(b[:2*4096])
			return badFile(t, b)
		}, ErrNotBivouac},
		{"data pages zeroed", func(t *testing.T) string {
			b := bytes.Clone(good)
			clear(b[2*4096:])
			return badFile(t, b)
		}, ErrCorrupt},
		{"data pages garbage", func(t *testing.T) string {
			b := bytes.Clone(good)
			for i := 2 * 4096; i < len(b); i++ {
				b[i] = byte(i * 7)
			}
			return badFile(t, b)
		}, ErrCorrupt},
		{"meta checksum broken", func(t *testing.T) string {
			b := bytes.Clone(good)
			b[60] ^= 0xff // inside both meta pages' checksummed fields
			b[4096+60] ^= 0xff
			return badFile(t, b)
		}, ErrCorrupt},
		{"schema too new", withMeta(func(m *bolt.Bucket) error { return m.Put(keySchema, u64be(99)) }), ErrSchemaTooNew},
		{"schema missing", withMeta(func(m *bolt.Bucket) error { return m.Delete(keySchema) }), ErrCorrupt},
		{"wrong magic", withMeta(func(m *bolt.Bucket) error { return m.Put(keyMagic, []byte("other")) }), ErrNotBivouac},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.make(t)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dirBefore, _ := os.ReadDir(filepath.Dir(path))
			s, err := Open(path, Options{Timeout: 200 * time.Millisecond})
			if err == nil {
				s.Close()
				t.Fatalf("Open succeeded; want %v", tt.want)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open: %v; want %v", err, tt.want)
			}
			t.Logf("Open: %v", err)
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Fatalf("Open modified the file (%d bytes before, %d after)", len(before), len(after))
			}
			if dirAfter, _ := os.ReadDir(filepath.Dir(path)); len(dirAfter) != len(dirBefore) {
				t.Fatalf("Open left files behind: %v", dirAfter)
			}
		})
	}
}

func TestOpenRefusesDirectory(t *testing.T) {
	_, err := Open(t.TempDir(), Options{})
	if !errors.Is(err, ErrNotBivouac) {
		t.Fatalf("Open(dir): %v; want ErrNotBivouac", err)
	}
}

func TestSecondOpenIsInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bivouac.db")
	first := openAt(t, path)
	start := time.Now()
	second, err := Open(path, Options{Timeout: 150 * time.Millisecond})
	if err == nil {
		second.Close()
		t.Fatal("second Open succeeded while the first holds the file")
	}
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("second Open: %v; want ErrInUse", err)
	}
	if !strings.Contains(err.Error(), "in use by another bivouac process") {
		t.Errorf("message %q does not explain", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("second Open took %v; want about the 150ms timeout", d)
	}
	// The first store is unharmed and the file opens again once it closes.
	mustPutRoom(t, first, testRoom("r1"))
	first.Close()
	third := openAt(t, path)
	if _, err := third.Room("r1"); err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
}

func TestSecondOpenOfNewFileIsInUse(t *testing.T) {
	// Even when the first Open created the file, a second one waits on the lock.
	path := filepath.Join(t.TempDir(), "bivouac.db")
	openAt(t, path)
	if _, err := Open(path, Options{Timeout: 50 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Fatalf("got %v; want ErrInUse", err)
	}
}

// withMigrations adds steps after this build's migrations for one test
// (none: a build that knows only today's version).
func withMigrations(t *testing.T, steps []migration) {
	t.Helper()
	saved := migrations
	migrations = append(slices.Clone(saved), steps...)
	t.Cleanup(func() { migrations = saved })
}

// A file made by a build of schema version 1 (before reviews) opens, gains
// the reviews bucket, and keeps its rooms.
func TestVersionOneFileGainsReviews(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bivouac.db")
	saved := migrations
	migrations = nil
	s := openAt(t, path)
	mustPutRoom(t, s, testRoom("r1"))
	s.Close()
	migrations = saved
	s = openAt(t, path)
	defer s.Close()
	if err := s.db.View(func(tx *bolt.Tx) error {
		if v, _ := readVersion(tx); v != 2 || tx.Bucket(bktReviews) == nil {
			t.Errorf("version %d, reviews bucket %v", v, tx.Bucket(bktReviews) != nil)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Room("r1"); err != nil {
		t.Fatalf("room lost in migration: %v", err)
	}
}

func TestMigrationRunsOnceInOneTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bivouac.db")
	s := openAt(t, path)
	mustPutRoom(t, s, testRoom("r1"))
	s.Close()

	runs := 0
	withMigrations(t, []migration{
		func(tx *bolt.Tx) error { // now → now+1: add a bucket
			runs++
			_, err := tx.CreateBucket([]byte("v2extra"))
			return err
		},
		func(tx *bolt.Tx) error { // now+1 → now+2: fill it
			runs++
			return tx.Bucket([]byte("v2extra")).Put([]byte("k"), []byte("v"))
		},
	})
	s = openAt(t, path)
	if runs != 2 {
		t.Fatalf("%d migrations ran; want 2", runs)
	}
	s.db.View(func(tx *bolt.Tx) error {
		if v, _ := readVersion(tx); v != schemaVersion() {
			t.Errorf("version after migration %d; want %d", v, schemaVersion())
		}
		if b := tx.Bucket([]byte("v2extra")); b == nil || string(b.Get([]byte("k"))) != "v" {
			t.Error("migrations did not leave their data")
		}
		return nil
	})
	if _, err := s.Room("r1"); err != nil {
		t.Fatalf("room lost in migration: %v", err)
	}
	s.Close()

	s = openAt(t, path) // already there: nothing runs
	s.Close()
	if runs != 2 {
		t.Fatalf("migrations ran again on reopen (%d runs)", runs)
	}

	// A build that knows only today's version refuses the migrated file.
	migrations = migrations[:len(migrations)-2]
	if _, err := Open(path, Options{}); !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("old build opening a newer file: %v; want ErrSchemaTooNew", err)
	}
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bivouac.db")
	s := openAt(t, path)
	mustPutRoom(t, s, testRoom("r1"))
	s.Close()
	before, _ := os.ReadFile(path)

	boom := errors.New("boom")
	withMigrations(t, []migration{
		func(tx *bolt.Tx) error {
			_, err := tx.CreateBucket([]byte("half"))
			return err
		},
		func(tx *bolt.Tx) error { return boom },
	})
	if _, err := Open(path, Options{}); !errors.Is(err, boom) {
		t.Fatalf("Open: %v; want the migration's error", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("a failed migration changed the file")
	}
}

// The free page list lives in memory only: a commit writes no freelist
// page (see boltOptions), and a reopened store
// still finds every page it had freed and every action it had stored.
func TestCommitsWriteNoFreelistPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	s := openAt(t, path)
	mustPutRoom(t, s, testRoom("R1"))
	for seq := uint64(1); seq <= 50; seq++ {
		if err := s.Append("R1", seq, []byte("an action")); err != nil {
			t.Fatal(err)
		}
	}
	freelistPages := func(s *Bolt) (n int) {
		t.Helper()
		err := s.db.View(func(tx *bolt.Tx) error {
			for id := 0; ; id++ {
				p, err := tx.Page(id)
				if err != nil || p == nil {
					return err
				}
				if p.Type == "freelist" {
					n++
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := freelistPages(s); n != 0 {
		t.Errorf("%d freelist pages in use after 51 commits", n)
	}
	s.Close()
	s = openAt(t, path)
	if log, err := s.Log("R1"); err != nil || len(log) != 50 {
		t.Fatalf("reopened: %d actions, %v", len(log), err)
	}
	if err := s.Append("R1", 51, []byte("one more")); err != nil {
		t.Fatal(err)
	}
}
