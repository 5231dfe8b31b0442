// Package metrics is the operator's view of a running server in
// Prometheus's exposition format: it owns the registry, the Go and process
// collectors, and Bivouac's own metrics. Nothing else imports Prometheus:
// the packages that count (table, sshserver, moderation, persistence) are
// given plain callbacks, and what already exists as state (players
// connected, tables, the node's health) is read at scrape time.
//
// No label carries a player's name, a table code, a key or any other
// identity: labels are games, states, kinds and reasons, a few values each.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Sources are the states read at every scrape; any may be nil.
type Sources struct {
	// Players counts this node's player sessions by kind (KindKey,
	// KindGuest, KindPlain).
	Players func() map[string]int
	// Tables calls add for every table this node runs.
	Tables func(add func(game, state string))
	// Ready is nil when the node serves players fully, else why not.
	Ready func() error
	// Cluster is this node's cluster state, nil on a single node.
	Cluster func() ClusterState
	// Frames counts the screen changes written to player sessions.
	Frames func() uint64
	// Refusals are the reasons Refused may be given (the SSH front door's
	// fixed set): each is served from the start, at 0, and any other is
	// counted as "other", so no caller can grow the registry.
	Refusals []string
	// Actions are the moderation actions Moderated may be given, each
	// served from the start at 0 (another is counted when it comes).
	Actions []string
	// NotifyFormats and NotifyReasons are the webhook formats and the
	// failure reasons of package notify (fixed sets, served from 0, others
	// counted as "other"); NotifyQueue the outbox's length (nil: off).
	NotifyFormats, NotifyReasons []string
	NotifyQueue                  func() int
}

// Session kinds, the values of bivouac_players_connected's kind label: a
// plain (screen reader) session counts as plain whether it has a key or not.
const (
	KindKey   = "key"
	KindGuest = "guest"
	KindPlain = "plain"
)

// ClusterState is what a scrape says of the node in its cluster.
type ClusterState struct {
	Nodes int  // nodes the cluster was configured with
	Ready bool // JetStream has a majority and this node has caught up
}

// Metrics is one server's registry. Its methods are safe for concurrent
// use; those called as players play (Moved, StoreWrote) are an atomic add
// or two and allocate nothing.
type Metrics struct {
	reg *prometheus.Registry

	refused     map[string]prometheus.Counter // by reason, fixed at New
	moves       prometheus.Counter
	moveSeconds prometheus.Histogram
	appendSecs  prometheus.Observer
	putRoomSecs prometheus.Observer
	moderation  *prometheus.CounterVec
	takeovers   prometheus.Counter
	notifySent  map[string]prometheus.Counter // by format, fixed at New
	notifyFail  map[string]prometheus.Counter // by reason, fixed at New
}

// latencyBuckets spans a move's or a write's time from a fraction of a
// millisecond (bbolt's group commit on an idle disk) to seconds (a cluster
// electing a leader).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New makes the registry with the Go and process collectors, Bivouac's
// counters, and the collector that reads src at each scrape.
func New(src Sources) *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{reg: reg}
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bivouac_sessions_refused_total",
		Help: "SSH connections and sessions refused, by reason."}, []string{"reason"})
	m.refused = map[string]prometheus.Counter{refusedOther: refused.WithLabelValues(refusedOther)}
	for _, r := range src.Refusals {
		m.refused[r] = refused.WithLabelValues(r)
	}
	m.moves = prometheus.NewCounter(prometheus.CounterOpts{Name: "bivouac_moves_total",
		Help: "Moves players made that their table accepted and stored."})
	m.moveSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "bivouac_move_duration_seconds",
		Help:    "A player's move from the table taking it to the last seat's mailbox holding the new view: rules, store and publish.",
		Buckets: latencyBuckets})
	store := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "bivouac_store_write_duration_seconds",
		Help:    "A table's write to the store until it is durable (committed and synced, or replicated), by operation.",
		Buckets: latencyBuckets}, []string{"op"})
	m.appendSecs, m.putRoomSecs = store.WithLabelValues("append"), store.WithLabelValues("put_room")
	m.moderation = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bivouac_moderation_actions_total",
		Help: "Moderation actions (ban, mute, report, kick, …), by action."}, []string{"action"})
	m.takeovers = prometheus.NewCounter(prometheus.CounterOpts{Name: "bivouac_cluster_lease_takeovers_total",
		Help: "Tables this node took over from a node whose lease lapsed."})
	for _, a := range src.Actions {
		m.moderation.WithLabelValues(a)
	}
	sent := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bivouac_notifications_sent_total",
		Help: "Notifications players' webhooks took (2xx), by format."}, []string{"format"})
	failed := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "bivouac_notifications_failed_total",
		Help: "Notifications not sent, by reason (refused addresses, timeouts, queue full, given up…)."}, []string{"reason"})
	m.notifySent, m.notifyFail = fixedSet(sent, src.NotifyFormats), fixedSet(failed, src.NotifyReasons)
	reg.MustRegister(refused, m.moves, m.moveSeconds, store, m.moderation, m.takeovers, sent, failed, newStateCollector(src))
	if src.NotifyQueue != nil {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bivouac_notifications_queued",
			Help: "Notifications this node's outbox holds."}, func() float64 { return float64(src.NotifyQueue()) }))
	}
	return m
}

// fixedSet is a counter for each label value and "other", at 0.
func fixedSet(v *prometheus.CounterVec, values []string) map[string]prometheus.Counter {
	set := map[string]prometheus.Counter{refusedOther: v.WithLabelValues(refusedOther)}
	for _, x := range values {
		set[x] = v.WithLabelValues(x)
	}
	return set
}

// NotifySent counts a notification a webhook took, by its format.
func (m *Metrics) NotifySent(format string) { count(m.notifySent, format) }

// NotifyFailed counts a notification not sent, by reason.
func (m *Metrics) NotifyFailed(reason string) { count(m.notifyFail, reason) }

func count(set map[string]prometheus.Counter, v string) {
	c, ok := set[v]
	if !ok {
		c = set[refusedOther]
	}
	c.Inc()
}

// Handler serves the registry at /metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Refused counts a connection or session refused; reason is one of
// Sources.Refusals (anything else counts as "other").
func (m *Metrics) Refused(reason string) {
	c, ok := m.refused[reason]
	if !ok {
		c = m.refused[refusedOther]
	}
	c.Inc()
}

// refusedOther is the reason a refusal not in Sources.Refusals is counted
// under.
const refusedOther = "other"

// Moved counts a player's accepted move and how long it took.
func (m *Metrics) Moved(took time.Duration) {
	m.moves.Inc()
	m.moveSeconds.Observe(took.Seconds())
}

// Appended times one append to a table's log.
func (m *Metrics) Appended(took time.Duration) { m.appendSecs.Observe(took.Seconds()) }

// PutRoom times one write of a table's record.
func (m *Metrics) PutRoom(took time.Duration) { m.putRoomSecs.Observe(took.Seconds()) }

// Moderated counts one moderation action (a fixed word: ban, mute, report…).
func (m *Metrics) Moderated(action string) { m.moderation.WithLabelValues(action).Inc() }

// TookOver counts a table taken over from a lapsed lease.
func (m *Metrics) TookOver() { m.takeovers.Inc() }
