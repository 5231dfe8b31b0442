package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bivouac-ssh/bivouac/persistence"
)

func entry(room string, seq uint64) []byte {
	return fmt.Appendf(nil, "%s/action-%d", room, seq)
}

func testAppendAndLogInOrder(t *testing.T, open Opener) {
	s := open(t, tickClock())
	mustPutRoom(t, s, testRoom("r1"))
	mustPutRoom(t, s, testRoom("r2"))

	if log, err := s.Log("r1"); err != nil || len(log) != 0 {
		t.Fatalf("Log of a new room = %q, %v; want empty", log, err)
	}
	// 300 entries: more than one page, and keys past 255 check big-endian order.
	for seq := uint64(1); seq <= 300; seq++ {
		if err := s.Append("r1", seq, entry("r1", seq)); err != nil {
			t.Fatalf("Append(r1, %d): %v", seq, err)
		}
		if seq <= 3 {
			if err := s.Append("r2", seq, entry("r2", seq)); err != nil {
				t.Fatal(err)
			}
		}
	}
	log, err := s.Log("r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 300 {
		t.Fatalf("Log has %d entries; want 300", len(log))
	}
	for i, e := range log {
		if want := entry("r1", uint64(i+1)); !bytes.Equal(e, want) {
			t.Fatalf("entry %d = %q; want %q", i+1, e, want)
		}
	}
	if last, err := s.LastSeq("r1"); err != nil || last != 300 {
		t.Fatalf("LastSeq = %d, %v; want 300", last, err)
	}
	since, err := s.LogSince("r1", 297)
	if err != nil || len(since) != 3 || !bytes.Equal(since[0], entry("r1", 298)) {
		t.Fatalf("LogSince(297) = %q, %v; want actions 298..300", since, err)
	}
	if none, err := s.LogSince("r1", math.MaxUint64); err != nil || len(none) != 0 {
		t.Fatalf("LogSince(max) = %d entries, %v; want none", len(none), err)
	}
	if r2, _ := s.Log("r2"); len(r2) != 3 || !bytes.Equal(r2[2], entry("r2", 3)) {
		t.Fatalf("r2 log = %q; want its own 3 entries", r2)
	}
}

func testReturnedEntriesAreCopies(t *testing.T, open Opener) {
	s := open(t, tickClock())
	mustPutRoom(t, s, testRoom("r1"))
	for seq := uint64(1); seq <= 5; seq++ {
		if err := s.Append("r1", seq, entry("r1", seq)); err != nil {
			t.Fatal(err)
		}
	}
	log, _ := s.Log("r1")
	// Write a lot more (bbolt remaps and reuses its pages), then look again.
	for seq := uint64(6); seq <= 200; seq++ {
		if err := s.Append("r1", seq, bytes.Repeat([]byte("x"), 5000)); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range log {
		if !bytes.Equal(e, entry("r1", uint64(i+1))) {
			t.Fatalf("entry %d changed under us: %q", i+1, e)
		}
	}
	log[0][0] = 'Z' // our copy: scribbling on it must not reach the database
	again, _ := s.LogSince("r1", 0)
	if !bytes.Equal(again[0], entry("r1", 1)) {
		t.Fatalf("database changed through a returned slice: %q", again[0])
	}
}

func testAppendSequenceRules(t *testing.T, open Opener) {
	s := open(t, tickClock())
	mustPutRoom(t, s, testRoom("r1"))
	for seq := uint64(1); seq <= 3; seq++ {
		if err := s.Append("r1", seq, entry("r1", seq)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		room  string
		seq   uint64
		entry []byte
		want  error
	}{
		{"retry of the last action", "r1", 3, entry("r1", 3), nil},
		{"retry of an earlier action", "r1", 1, entry("r1", 1), nil},
		{"same number, other bytes", "r1", 3, []byte("forged"), persistence.ErrFenced},
		{"earlier number, other bytes", "r1", 2, []byte("forged"), persistence.ErrFenced},
		{"gap", "r1", 5, entry("r1", 5), persistence.ErrSeq},
		{"zero", "r1", 0, entry("r1", 0), persistence.ErrSeq},
		{"empty entry", "r1", 4, nil, persistence.ErrInvalid},
		{"unknown room", "nope", 1, entry("nope", 1), persistence.ErrNotFound},
		{"bad room id", "a\x00b", 1, entry("x", 1), persistence.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Append(tt.room, tt.seq, tt.entry); !errors.Is(err, tt.want) {
				t.Fatalf("Append = %v; want %v", err, tt.want)
			}
		})
	}
	log, _ := s.Log("r1")
	if len(log) != 3 || !bytes.Equal(log[2], entry("r1", 3)) {
		t.Fatalf("refused appends changed the log: %q", log)
	}
	if err := s.Append("r1", 4, entry("r1", 4)); err != nil {
		t.Fatalf("the next number after refusals: %v", err)
	}
	if _, err := s.Log("nope"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("Log of unknown room: %v; want ErrNotFound", err)
	}
}

// Many rooms append at once, as their actors do; some callers fail on
// purpose. Every log ends complete and in order.
func testConcurrentAppends(t *testing.T, open Opener) {
	s := open(t, tickClock())
	const tables, actions = 50, 40
	for i := range tables {
		mustPutRoom(t, s, testRoom(fmt.Sprintf("t%02d", i)))
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables)
	for i := range tables {
		wg.Go(func() {
			room := fmt.Sprintf("t%02d", i)
			for seq := uint64(1); seq <= actions; seq++ {
				if err := s.Append(room, seq, entry(room, seq)); err != nil {
					errs <- fmt.Errorf("%s %d: %w", room, seq, err)
					return
				}
				if i%5 == 0 && seq%10 == 0 { // a failing caller among the others (bbolt reruns its batch)
					if err := s.Append(room, seq+2, entry(room, seq+2)); !errors.Is(err, persistence.ErrSeq) {
						errs <- fmt.Errorf("%s gap: %v; want ErrSeq", room, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range tables {
		room := fmt.Sprintf("t%02d", i)
		log, err := s.Log(room)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != actions {
			t.Fatalf("%s has %d entries; want %d", room, len(log), actions)
		}
		for j, e := range log {
			if !bytes.Equal(e, entry(room, uint64(j+1))) {
				t.Fatalf("%s entry %d = %q", room, j+1, e)
			}
		}
	}
}

// Two writers race for each next number of one room (a node that lost its
// lease and the node that took the room over): exactly one wins each
// number, the other gets ErrFenced, and the log holds only winners' bytes.
func testAppendIsFenced(t *testing.T, open Opener) {
	s := open(t, tickClock())
	mustPutRoom(t, s, testRoom("r1"))
	const rounds = 30
	for seq := uint64(1); seq <= rounds; seq++ {
		var wins atomic.Int32
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w := range 2 {
			wg.Go(func() {
				errs[w] = s.Append("r1", seq, fmt.Appendf(nil, "writer %d action %d", w, seq))
				if errs[w] == nil {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("action %d: %d writers won (errors %v); want exactly one", seq, wins.Load(), errs)
		}
		for _, err := range errs {
			if err != nil && (!errors.Is(err, persistence.ErrFenced) || !errors.Is(err, persistence.ErrSeq)) {
				t.Fatalf("action %d: the loser got %v; want ErrFenced (an ErrSeq)", seq, err)
			}
		}
	}
	log, err := s.Log("r1")
	if err != nil || len(log) != rounds {
		t.Fatalf("log has %d entries, %v; want %d", len(log), err, rounds)
	}
	for i, e := range log {
		if !bytes.HasSuffix(e, fmt.Appendf(nil, " action %d", i+1)) {
			t.Fatalf("entry %d = %q", i+1, e)
		}
	}
	// A stale writer coming back later with its own bytes is still fenced.
	if err := s.Append("r1", rounds, []byte("writer 9")); !errors.Is(err, persistence.ErrFenced) {
		t.Fatalf("a stale writer's late append: %v; want ErrFenced", err)
	}
}
