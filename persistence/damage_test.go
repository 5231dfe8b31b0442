package persistence

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

const pageSize = 4096

// leafPages lists the leaf pages in use in a database file.
func leafPages(t *testing.T, path string) []int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var leaves []int
	err = db.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil {
				return err
			}
			if p == nil {
				return nil
			}
			if p.Type == "leaf" {
				leaves = append(leaves, id)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return leaves
}

// misnamePage makes page id of b claim to be another page, the damage that
// made bbolt panic with "Page expected to be: …, but self identifies as …".
func misnamePage(b []byte, id int) {
	binary.LittleEndian.PutUint64(b[id*pageSize:], uint64(id+1000))
}

// A damaged data page is found when the file is opened: a clear error,
// the file untouched (issue 12 item 8).
func TestOpenFindsAMisnamedDataPage(t *testing.T) {
	_, good := bivouacFile(t)
	path := filepath.Join(t.TempDir(), "bivouac.db")
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	leaves := leafPages(t, path)
	if len(leaves) < 2 {
		t.Fatalf("only %d leaf pages; want a file with data pages", len(leaves))
	}
	b := bytes.Clone(good)
	misnamePage(b, leaves[len(leaves)/2])
	bad := badFile(t, b)
	s, err := Open(bad, Options{Timeout: 200 * time.Millisecond})
	if err == nil {
		s.Close()
		t.Fatal("a file with a misnamed page opened")
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open: %v; want ErrCorrupt", err)
	}
	if after, _ := os.ReadFile(bad); !bytes.Equal(after, b) {
		t.Fatal("Open changed the damaged file")
	}
}

// A page damaged while the server runs costs the reads that touch it an
// ErrCorrupt, never a panic of the whole process.
func TestReadingADamagedPageIsAnError(t *testing.T) {
	path, _ := bivouacFile(t)
	leaves := leafPages(t, path)
	s := openAt(t, path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var id [8]byte
	for _, leaf := range leaves {
		binary.LittleEndian.PutUint64(id[:], uint64(leaf+1000))
		if _, err := f.WriteAt(id[:], int64(leaf*pageSize)); err != nil {
			t.Fatal(err)
		}
	}
	corrupt := 0
	for i := range 10 {
		_, err := s.Log("room" + string(rune('a'+i)))
		if errors.Is(err, ErrCorrupt) {
			corrupt++
		} else if err != nil {
			t.Fatalf("reading a damaged log: %v; want ErrCorrupt", err)
		}
	}
	if corrupt == 0 {
		t.Fatal("no read met the damaged pages")
	}
}

// A flipped data page is named in Open's error, with what to do about it,
// never as a Go runtime error (issue 28 item 10: "database is corrupt:
// runtime error: slice bounds out of range").
func TestOpenNamesAFlippedPageAndSaysToRestore(t *testing.T) {
	_, good := bivouacFile(t)
	leaves := leafPages(t, badFile(t, good))
	damage := map[string]func(p []byte, r *rand.Rand){
		"every bit past the header flipped": func(p []byte, _ *rand.Rand) {
			for i := 16; i < len(p); i++ {
				p[i] ^= 0xff
			}
		},
		"random bytes past the header": func(p []byte, r *rand.Rand) {
			for i := 16; i < len(p); i++ {
				p[i] = byte(r.IntN(256))
			}
		},
		"every bit flipped": func(p []byte, _ *rand.Rand) {
			for i := range p {
				p[i] ^= 0xff
			}
		},
		"an entry's position flipped": func(p []byte, _ *rand.Rand) {
			p[16+4+3] ^= 0x80
		},
	}
	for name, flip := range damage {
		for _, leaf := range leaves {
			b := bytes.Clone(good)
			flip(b[leaf*pageSize:(leaf+1)*pageSize], rand.New(rand.NewPCG(uint64(leaf), 28)))
			path := badFile(t, b)
			s, err := Open(path, Options{Timeout: 200 * time.Millisecond})
			if err == nil {
				s.Close()
				t.Fatalf("%s, page %d: the file opened", name, leaf)
			}
			msg := err.Error()
			var dp *DamagedPage
			if !errors.As(err, &dp) || dp.Page != uint64(leaf) || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s, page %d: %v; want page %d named as damaged", name, leaf, err, leaf)
			}
			for _, want := range []string{fmt.Sprintf("page %d is damaged", leaf), "left untouched", "a backup made with `bivouac backup`"} {
				if !strings.Contains(msg, want) {
					t.Fatalf("%s, page %d: %q lacks %q", name, leaf, msg, want)
				}
			}
			if strings.Contains(msg, "runtime error") {
				t.Fatalf("%s, page %d: %q", name, leaf, msg)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
				t.Fatalf("%s, page %d: Open changed the damaged file", name, leaf)
			}
		}
	}
}

// Issue 36 item 9: a flipped byte inside a stored value that kept its JSON
// valid went unnoticed, and one that did not gave "undecodable record:
// invalid character…" naming neither the record nor what to do. Records
// carry a checksum: the server refuses the file at start, naming the
// bucket and key, and a read meets it the same way.
func TestAFlippedByteInARecordIsNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seen("SHA256:ada", "Ada1986"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("Ada1986"))
	if i < 0 || bytes.Count(b, []byte("Ada1986")) != 1 {
		t.Fatal("the record is not in the file once")
	}
	b[i+6] = '7' // "Ada1987": still valid JSON
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, Options{})
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open of a file with a flipped digit in a name: %v, want ErrCorrupt", err)
	}
	for _, want := range []string{"checksum", "bucket players", `key "SHA256:ada"`, "bivouac backup"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	// A read of it, as a running server would meet it (the file past its
	// check at start).
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	running := &Bolt{db: db, path: path, now: time.Now}
	_, err = running.Player("SHA256:ada")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "bucket players") || !strings.Contains(err.Error(), "bivouac backup") {
		t.Fatalf("reading the damaged record: %v; want ErrCorrupt naming it and what to do", err)
	}
}

// Records written before the checksum (no "c") are read as they are.
func TestRecordsWithoutAChecksumStillRead(t *testing.T) {
	type rec struct{ N int }
	v, err := Decode[rec]([]byte(`{"v":1,"d":{"N":7}}`))
	if err != nil || v.N != 7 {
		t.Fatalf("Decode of an old record = %+v, %v", v, err)
	}
	raw, err := Encode(rec{N: 7})
	if err != nil || !bytes.Contains(raw, []byte(`"c":"`)) {
		t.Fatalf("Encode = %s, %v; want a checksum", raw, err)
	}
	flipped := bytes.Replace(raw, []byte(`"N":7`), []byte(`"N":8`), 1)
	if _, err := Decode[rec](flipped); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Decode of a flipped record: %v", err)
	}
}
