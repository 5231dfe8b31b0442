package server

import (
	"context"
	"time"
)

// aliveEvery is how often the server marks the store alive. After a crash
// the last mark is when it stopped, give or take this much: a timed step
// resumes with what it had left then (table.RoomConfig.Stopped).
const aliveEvery = time.Second

// heartbeat marks the store alive until ctx ends.
func (s *Server) heartbeat(ctx context.Context) {
	defer s.beating.Done()
	t := time.NewTicker(aliveEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if err := s.store.MarkAlive(now); err != nil {
				s.log.Warn("could not mark the store alive", "err", err)
			}
		}
	}
}
