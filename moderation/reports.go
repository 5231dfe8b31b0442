package moderation

import (
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// Limits on the reports queue. One report a minute a session (tui) was
// no limit: a fresh guest session filed another, 5.7 reports a second from
// one address, 772 in 80 s from four (3.4 MB stored, and as much printed
// by `admin reports` and the console's overview).
const (
	// ReportsPerReporter and ReportsPerAddress are how many reports one
	// player, and one address (IPv4, or IPv6 /64: the caller's grouping),
	// may file in ReportWindow; past them a report is refused and says so.
	ReportsPerReporter = 5
	ReportsPerAddress  = 10
	ReportWindow       = time.Hour
	// MaxOpenReportsAbout is how many open reports one player may be the
	// subject of; past it a new one counts into their latest (Count).
	MaxOpenReportsAbout = 20
	// ReportsKept is how long a resolved report stays in the queue (for
	// `admin reports all`) before it is forgotten.
	ReportsKept = 90 * 24 * time.Hour
	// reportCounters bounds the memory of the limits: past it the
	// counters that are all older than ReportWindow go, then any.
	reportCounters = 10000
)

// ErrTooManyReports: the reporter or their address filed ReportsPerReporter
// or ReportsPerAddress reports within ReportWindow.
var ErrTooManyReports = words.NewError("moderation.err.too_many_reports")

// reportLimits counts, in memory on this node, the reports filed by each
// reporter and each address within ReportWindow.
type reportLimits struct {
	mu        sync.Mutex
	by        map[string][]time.Time // "id:…" or "addr:…" → when, oldest first
	lastSweep time.Time              // of resolved reports (ReportsKept)
}

// take counts a report of reporter from addr at now, or reports false
// when either has used up its budget (and counts nothing).
func (l *reportLimits) take(reporter, addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.by == nil {
		l.by = map[string][]time.Time{}
	}
	keys := []string{"id:" + reporter}
	limits := []int{ReportsPerReporter}
	if addr != "" {
		keys, limits = append(keys, "addr:"+addr), append(limits, ReportsPerAddress)
	}
	for i, k := range keys {
		if len(l.recent(k, now)) >= limits[i] {
			return false
		}
	}
	if len(l.by) >= reportCounters {
		l.forget(now)
	}
	for _, k := range keys {
		l.by[k] = append(l.recent(k, now), now)
	}
	return true
}

// recent is k's reports within ReportWindow of now.
func (l *reportLimits) recent(k string, now time.Time) []time.Time {
	ts := l.by[k]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= ReportWindow {
		i++
	}
	return ts[i:]
}

// forget drops the counters with nothing recent, or if none, any.
func (l *reportLimits) forget(now time.Time) {
	for k := range l.by {
		if len(l.recent(k, now)) == 0 {
			delete(l.by, k)
		}
	}
	for k := range l.by {
		if len(l.by) < reportCounters {
			return
		}
		delete(l.by, k)
	}
}

// sweepDue reports whether resolved reports should be looked at for
// forgetting (at most once an hour).
func (l *reportLimits) sweepDue(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) < time.Hour {
		return false
	}
	l.lastSweep = now
	return true
}
