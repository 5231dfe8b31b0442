package persistence

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"

	bolt "go.etcd.io/bbolt"
)

func openCommitTest(t *testing.T) (*bolt.DB, *groupCommit) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("b")); return err }); err != nil {
		t.Fatal(err)
	}
	return db, &groupCommit{db: db, max: 1000}
}

func put(key string) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error { return tx.Bucket([]byte("b")).Put([]byte(key), []byte("v")) }
}

// Writes that come while a commit is under way all go into the next one:
// one commit for the writes that piled up, not one each (the convoy that
// bbolt's DB.Batch made behind a slow commit).
func TestGroupCommitTakesWhatPiledUpInOne(t *testing.T) {
	db, g := openCommitTest(t)
	slow, release := make(chan struct{}), make(chan struct{})
	go g.do(func(tx *bolt.Tx) error { close(slow); <-release; return nil })
	<-slow // the first commit is under way and holds the writer
	const n = 50
	txs := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.do(func(tx *bolt.Tx) error { txs[i] = tx.ID(); return put(string(rune('a' + i)))(tx) }); err != nil {
				t.Error(err)
			}
		}()
	}
	for { // all n are waiting for the next commit
		g.mu.Lock()
		waiting := len(g.pending)
		g.mu.Unlock()
		if waiting == n {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	for i, id := range txs {
		if id != txs[0] {
			t.Fatalf("write %d committed in transaction %d, write 0 in %d: the pile was split", i, id, txs[0])
		}
	}
	err := db.View(func(tx *bolt.Tx) error {
		if got := tx.Bucket([]byte("b")).Stats().KeyN; got != n {
			t.Errorf("%d keys stored, want %d", got, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A write that fails, or panics, gets its own error; the writes that
// shared its transaction are stored all the same.
func TestGroupCommitGivesAFailingWriteItsOwnError(t *testing.T) {
	db, g := openCommitTest(t)
	slow, release := make(chan struct{}), make(chan struct{})
	go g.do(func(tx *bolt.Tx) error { close(slow); <-release; return nil })
	<-slow
	bad := errors.New("refused")
	fns := []func(*bolt.Tx) error{
		put("x"),
		func(tx *bolt.Tx) error { put("never")(tx); return bad },
		put("y"),
		func(*bolt.Tx) error { panic("boom") },
		put("z"),
	}
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = g.do(fn) }()
	}
	for {
		g.mu.Lock()
		waiting := len(g.pending)
		g.mu.Unlock()
		if waiting == len(fns) {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if !errors.Is(errs[1], bad) {
		t.Errorf("the refused write got %v", errs[1])
	}
	if errs[3] == nil || !strings.Contains(errs[3].Error(), "panicked") {
		t.Errorf("the panicking write got %v", errs[3])
	}
	for _, i := range []int{0, 2, 4} {
		if errs[i] != nil {
			t.Errorf("write %d failed with its neighbours: %v", i, errs[i])
		}
	}
	db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("b"))
		for _, k := range []string{"x", "y", "z"} {
			if b.Get([]byte(k)) == nil {
				t.Errorf("%s was not stored", k)
			}
		}
		if b.Get([]byte("never")) != nil {
			t.Error("the refused write's change was kept")
		}
		return nil
	})
}

// The committer stays for writes that come soon after (one goroutine under
// load, not one per burst), commits them at once, and ends once writes
// stop for committerLinger, so an idle store keeps no goroutine.
func TestGroupCommitterLingersThenEnds(t *testing.T) {
	_, g := openCommitTest(t)
	running := func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.running }
	if err := g.do(put("a")); err != nil {
		t.Fatal(err)
	}
	if !running() {
		t.Fatal("the committer ended at once after a write")
	}
	time.Sleep(committerLinger / 4)
	start := time.Now()
	if err := g.do(put("b")); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited > committerLinger/2 {
		t.Errorf("a write to a waiting committer took %v", waited)
	}
	clocktest.CheckFor(t, committerLinger+5*time.Second, 50*time.Millisecond, func() error {
		if running() {
			return errors.New("the committer never ended once writes stopped")
		}
		return nil
	})
	if err := g.do(put("c")); err != nil { // a new committer starts
		t.Fatal(err)
	}
}

// With a pace, a commit that had company is followed by the next only
// once the pace has run out from its start, and the writes that came
// meanwhile go together into it; a lone writer is never held.
func TestGroupCommitPaceGathersTheWritesThatCameMeanwhile(t *testing.T) {
	_, lone := openCommitTest(t)
	lone.pace = time.Hour
	lone.sleep = func(d time.Duration) { t.Errorf("a lone writer's write waited %v", d) }
	for i := range 3 { // one write after another, each once the last is stored
		if err := lone.do(put(string(rune('a' + i)))); err != nil {
			t.Fatal(err)
		}
	}

	_, g := openCommitTest(t)
	waiting := func() int { g.mu.Lock(); defer g.mu.Unlock(); return len(g.pending) }
	slept, release := make(chan time.Duration), make(chan struct{})
	g.pace = time.Hour // never runs out by itself: the test's sleep ends it
	g.sleep = func(d time.Duration) {
		select {
		case slept <- d:
		case <-release: // the test no longer listens
		}
		<-release
	}
	started, unblock := make(chan struct{}), make(chan struct{})
	var first int // the first write's transaction
	go g.do(func(tx *bolt.Tx) error { first = tx.ID(); close(started); <-unblock; return put("first")(tx) })
	<-started
	const n = 20
	txs := make([]int, n)
	var wg sync.WaitGroup
	write := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.do(func(tx *bolt.Tx) error { txs[i] = tx.ID(); return put(string(rune('a' + i)))(tx) }); err != nil {
				t.Error(err)
			}
		}()
	}
	write(0) // comes while the first commit runs: that commit was busy
	for waiting() < 1 {
		runtime.Gosched()
	}
	close(unblock)
	if d := <-slept; d <= 0 || d > g.pace { // the committer waits out the pace
		t.Fatalf("the committer waits %v after a busy commit, pace %v", d, g.pace)
	}
	for i := 1; i < n; i++ {
		write(i)
	}
	for waiting() < n { // all wait for the pace to run out
		runtime.Gosched()
	}
	close(release) // the pace ran out
	wg.Wait()
	for i, tx := range txs {
		if tx != first+1 {
			t.Fatalf("write %d committed in transaction %d, the first in %d: not all in the next", i, tx, first)
		}
	}
}
