package persistence

import (
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// groupCommit runs the store's frequent writes (Append, PutRoom,
// MarkAlive) in shared transactions, one fsync for many: a write that comes
// while a commit is under way goes into the next one, with every other
// write that came meanwhile (group commit). A lone write commits at once.
//
// It replaces bbolt's DB.Batch, which closes a batch after a fixed delay
// and starts a new one each delay while the last still waits for the
// writer lock. When a commit was slow (a garbage collection marking ten
// thousand sessions), a new batch was closed every millisecond behind it,
// each with a handful of writes and its own commit and fsync: a convoy in
// which a move waited up to two seconds to be stored. Here the writes
// that pile up behind a slow commit all go into the one after it.
//
// With a pace, a commit that had company (or saw writes come while it
// ran) is followed by the next no sooner than pace after it began: under
// load each commit takes what came meanwhile, fewer commits for as many
// writes. A lone writer (a table of bots, writing only once its last
// write is stored) is never held.
//
// Like DB.Batch, a write whose function fails is run again alone to give
// its caller its own error, and the others are run again without it; so a
// function may run more than once and must be idempotent.
type groupCommit struct {
	db    *bolt.DB
	max   int                 // most writes in one transaction
	delay time.Duration       // how long a commit waits for company (0: none)
	pace  time.Duration       // the least time from a busy commit's start to the next's (0: none)
	sleep func(time.Duration) // time.Sleep; a test's own

	mu      sync.Mutex
	pending []commitCall
	running bool          // the committer runs; it takes pending when done
	wake    chan struct{} // tells a waiting committer that writes came (one slot)
}

// committerLinger is how long the committer waits for more writes once
// it has caught up, before it ends (an idle store keeps no goroutine). A
// committer started anew for every burst of writes was a new goroutine
// many times a second under load, each paying the collector's assist
// floor (64 KB of marking) at its first allocation while a mark ran.
const committerLinger = time.Second

type commitCall struct {
	fn   func(*bolt.Tx) error
	done chan error
}

// do runs fn in a shared write transaction and returns once that is
// committed (fsync included), or with fn's own error.
func (g *groupCommit) do(fn func(*bolt.Tx) error) error {
	done := make(chan error, 1)
	g.mu.Lock()
	g.pending = append(g.pending, commitCall{fn: fn, done: done})
	if !g.running {
		g.running = true
		if g.wake == nil {
			g.wake = make(chan struct{}, 1)
		}
		go g.commitAll()
	} else {
		select {
		case g.wake <- struct{}{}:
		default: // already told
		}
	}
	g.mu.Unlock()
	return <-done
}

// commitAll commits what is pending until nothing is, then waits up to
// committerLinger for more.
func (g *groupCommit) commitAll() {
	linger := time.NewTimer(committerLinger)
	defer linger.Stop()
	sleep := g.sleep
	if sleep == nil {
		sleep = time.Sleep
	}
	wait := g.delay > 0 // the first write waits for company
	var began time.Time // when the last commit began
	busy := false       // it had company, or writes came while it ran
	for {
		if wait {
			sleep(g.delay)
		}
		if g.pace > 0 && busy {
			if left := g.pace - time.Since(began); left > 0 {
				sleep(left) // the writes that come meanwhile go together
			}
		}
		g.mu.Lock()
		calls := g.pending
		if len(calls) > g.max {
			calls = calls[:g.max:g.max]
		}
		g.pending = g.pending[len(calls):]
		if len(calls) > 0 {
			g.mu.Unlock()
			began = time.Now()
			busy = g.commit(calls)
			wait = false // writes that came during the commit go next, at once
			continue
		}
		g.pending = nil
		g.mu.Unlock()
		linger.Reset(committerLinger)
		select {
		case <-g.wake:
			wait = g.delay > 0 // a lone write after a pause waits for company, as the first
			continue
		case <-linger.C:
		}
		g.mu.Lock()
		if len(g.pending) > 0 { // came as the timer fired: its wake is in the slot
			g.mu.Unlock()
			continue
		}
		g.running = false
		g.mu.Unlock()
		return
	}
}

// commit runs calls in one transaction; a failing call is taken out and
// run alone, and the rest run again. It says whether the commit was busy:
// it had company, or writes came while it ran.
func (g *groupCommit) commit(calls []commitCall) (busy bool) {
	for len(calls) > 0 {
		failed := -1
		err := g.db.Update(func(tx *bolt.Tx) error {
			for i, c := range calls {
				if err := safely(c.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed < 0 { // committed, or the commit itself failed for all
			busy = len(calls) > 1 || g.waiting() // before the acks: a lone writer's next write comes after them
			for _, c := range calls {
				c.done <- err
			}
			return busy
		}
		c := calls[failed]
		calls = append(calls[:failed:failed], calls[failed+1:]...)
		c.done <- g.db.Update(func(tx *bolt.Tx) error { return safely(c.fn, tx) })
	}
	return false // every write failed
}

// waiting says whether writes wait for the next commit.
func (g *groupCommit) waiting() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.pending) > 0
}

// safely turns a panic in fn into its error: the committer serves every
// table and must not die with one write.
func safely(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("persistence: a write panicked: %v", p)
		}
	}()
	return fn(tx)
}
