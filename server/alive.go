package server

import (
	"context"
	"sync"
	"time"
)

// aliveEvery is how often the server marks the store alive. After a crash
// the last mark is when it stopped, give or take this much: a timed step
// resumes with what it had left then (table.RoomConfig.Stopped).
const aliveEvery = time.Second

// clusterAliveEvery is how often each node of a cluster that runs tables
// marks it: every such node marks the same record (a replicated write
// each time), so it is 3 s old at worst. A node that runs no table writes
// nothing (idle, this was the largest part of a cluster's traffic): the
// mark only says when a table's timed step stopped, and a room restored
// after a mark older than its deadline gets its whole step (never less).
// A node that died is not timed by it anyway: its tables resume from
// their leases' last renewal. Nor is readiness, which asks NATS. A later
// release that must know whether a node of this one still runs cannot
// count on this mark (an idle node writes none), as this one counts on
// the marks of the releases before (persistence/jetstream/upgrade.go).
const clusterAliveEvery = 3 * time.Second

// fileCheckEvery is how often the server checks that its database file is
// still the one at its path; replacedSaidEvery how often it says so, loudly,
// while it is not.
const (
	fileCheckEvery    = 5 * time.Second
	replacedSaidEvery = time.Minute
)

// whileRunning is mark, done only while running (the tables this node
// runs) says there is one.
func whileRunning(running func() int, mark func(time.Time) error) func(time.Time) error {
	return func(at time.Time) error {
		if running() == 0 {
			return nil
		}
		return mark(at)
	}
}

// heartbeat marks the store alive until ctx ends, and watches its file.
func (s *Server) heartbeat(ctx context.Context) {
	defer s.beating.Done()
	every, mark := aliveEvery, s.store.MarkAlive
	if s.cluster != nil {
		// A mark not stored within a second is moot, and a cluster
		// without its majority must not hold the stop (Close waits for
		// this loop) for a store's whole timeout.
		every, mark = clusterAliveEvery, whileRunning(s.hub.Running, s.cluster.Store().WithTimeout(aliveEvery).MarkAlive)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var lastCheck, lastSaid time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if err := mark(now); err != nil {
				s.log.Warn("could not mark the store alive", "err", err)
			}
			if now.Sub(lastCheck) >= fileCheckEvery {
				lastCheck = now
				if s.checkFile(now.Sub(lastSaid) >= replacedSaidEvery) {
					lastSaid = now
				}
			}
		}
	}
}

// fileWatched is a store whose file can be replaced under it (bbolt).
type fileWatched interface{ FileReplaced() error }

// checkFile notes whether the store's database file was replaced or
// removed under the running server (a backup renamed over it by another
// server's tools, a mistaken mv): /readyz then answers 503 with that, and
// the log says so as an error, naming what to do, when say is set. It
// reports whether it said something.
func (s *Server) checkFile(say bool) bool {
	w, ok := s.store.(fileWatched)
	if !ok {
		return false
	}
	err := w.FileReplaced()
	s.fileReplaced.set(err)
	if err == nil {
		return false
	}
	if say {
		s.log.Error("THE DATABASE FILE WAS REPLACED OR REMOVED under the running server", "err", err)
	}
	return say
}

// fileState is the last answer of the store's file check.
type fileState struct {
	mu  sync.Mutex
	err error
}

func (f *fileState) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.err = err
}

func (f *fileState) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
