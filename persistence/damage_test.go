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
