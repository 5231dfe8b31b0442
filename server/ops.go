package server

import (
	"errors"
	"net/http"
	"time"

	"github.com/bivouac-ssh/bivouac/metrics"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/live"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// The operator's listener (--metrics-addr): /metrics for Prometheus,
// /healthz and /readyz for a supervisor or a load balancer. Players never
// reach it; docs/OPERATING.md says to keep it on loopback or a private network.

// openMetrics makes the server's registry, reading sessions, tables and
// readiness at each scrape. Before the rooms and the SSH front door: they
// are given its hooks.
func (s *Server) openMetrics() {
	src := metrics.Sources{
		Players: s.countByKind,
		Tables: func(add func(game, state string)) {
			s.hub.EachLocal(func(sum table.Summary) { add(sum.Game, string(sum.Status)) })
		},
		Ready:   s.Ready,
		Frames:  tui.FramesWritten,
		Actions: moderation.Actions,
	}
	for _, f := range notify.Formats {
		src.NotifyFormats = append(src.NotifyFormats, string(f))
	}
	for _, r := range notify.Reasons {
		src.NotifyReasons = append(src.NotifyReasons, string(r))
	}
	if s.cfg.Notify.On {
		src.NotifyQueue = func() int {
			if s.outbox == nil {
				return 0
			}
			return s.outbox.Len()
		}
	}
	for _, r := range sshserver.Refusals {
		src.Refusals = append(src.Refusals, string(r))
	}
	if s.cluster != nil {
		s.health = s.cluster.Healthy
		src.Cluster = func() metrics.ClusterState {
			return metrics.ClusterState{Nodes: s.cluster.Size(), Ready: s.health() == nil}
		}
	}
	s.metrics = metrics.New(src)
}

// errStoreClosed is /readyz's answer once the server has closed its store.
var errStoreClosed = errors.New("the store is closed")

// Ready is nil when the node serves players fully: its store is open and,
// in a cluster, JetStream has a majority and this node has caught up.
func (s *Server) Ready() error {
	if s.health != nil {
		if err := s.health(); err != nil {
			return err
		}
	}
	if s.cluster != nil {
		return nil // the store is JetStream: health said
	}
	// A read of the store: fails once it is closed (or its file is gone).
	if _, err := s.store.LastAlive(); err != nil {
		return errStoreClosed
	}
	if s.fileReplaced.get() != nil {
		return persistence.ErrFileReplaced
	}
	return nil
}

// OpsHandler serves /metrics, /healthz and /readyz.
func (s *Server) OpsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		// The process serves: nothing more is asked, so a supervisor
		// restarts only a process that no longer answers at all.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n")) // a prober that hung up wants no answer
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := s.Ready(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("not ready: " + err.Error() + "\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	return mux
}

// countByKind is the number of player sessions by metrics kind.
func (s *Server) countByKind() map[string]int {
	out := map[string]int{metrics.KindKey: 0, metrics.KindGuest: 0, metrics.KindPlain: 0}
	s.live.Each(func(ls *live.Session) {
		switch {
		case ls.Plain:
			out[metrics.KindPlain]++
		case ls.Who.Guest:
			out[metrics.KindGuest]++
		default:
			out[metrics.KindKey]++
		}
	})
	return out
}

// timedStore times the writes tables make as they play, for the metrics.
type timedStore struct {
	persistence.Store
	m *metrics.Metrics
}

func (t timedStore) Append(room string, seq uint64, entry []byte) error {
	began := time.Now()
	err := t.Store.Append(room, seq, entry)
	t.m.Appended(time.Since(began))
	return err
}

func (t timedStore) PutRoom(r persistence.RoomRecord) (persistence.RoomRecord, error) {
	began := time.Now()
	out, err := t.Store.PutRoom(r)
	t.m.PutRoom(time.Since(began))
	return out, err
}
