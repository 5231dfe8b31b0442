// Package logthrottle keeps a flood from flooding the log: a log/slog
// Handler that lets through at most Burst lines of one kind from one
// source every Every, and then says how many it held back.
//
// A line's kind is its message; its source is the value of the first of
// Options.Sources among its attributes (a client's address, say), passed
// through Options.Group. Lines without a source are never held back: the
// server's own lines (a room restored, a store error) are not a flood
// someone outside can cause. Of a kind and source over its budget, the
// lines are counted, and when the interval ends one line says so:
// msg="similar lines suppressed" with the message, the source and the
// count (suppressed=K).
//
// Memory is bounded: at most Options.MaxSources kinds and sources are
// remembered in an interval; past that, new sources of a kind share one
// budget, so a flood from many addresses is bounded too.
package logthrottle

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
)

// Options configure New; zero values take the defaults noted.
type Options struct {
	Every      time.Duration // the interval; default 1 minute
	Burst      int           // lines of one kind and source per interval; default 20
	Sources    []string      // attribute keys naming a line's source; default "remote"
	Group      func(string) string
	MaxSources int         // kinds and sources remembered; default 10,000
	Clock      clock.Clock // default clock.System
}

// overflow is the source lines of new sources share once MaxSources are
// remembered.
const overflow = "(other sources)"

// SummaryMsg is the message of the line that counts suppressed lines.
const SummaryMsg = "similar lines suppressed"

// New wraps next.
func New(next slog.Handler, o Options) slog.Handler {
	if o.Every <= 0 {
		o.Every = time.Minute
	}
	if o.Burst <= 0 {
		o.Burst = 20
	}
	if len(o.Sources) == 0 {
		o.Sources = []string{"remote"}
	}
	if o.MaxSources <= 0 {
		o.MaxSources = 10000
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	return &handler{next: next, st: &state{o: o, next: next, by: map[key]*count{}}}
}

type key struct{ msg, source string }

type count struct {
	start      time.Time
	lines      int
	suppressed int
	level      slog.Level // the highest level suppressed
}

// state is shared by a handler and the ones WithAttrs and WithGroup make.
type state struct {
	o    Options
	next slog.Handler // the root handler, for summaries

	mu    sync.Mutex
	by    map[key]*count
	timer clock.Timer // set while some line is suppressed
}

type handler struct {
	next   slog.Handler
	st     *state
	source string // set by WithAttrs
	group  bool   // attributes after WithGroup are not at the top level
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	src := h.source
	if src == "" && !h.group {
		src = h.st.sourceOf(r)
	}
	if src == "" || h.st.allow(r.Message, src, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.next = h.next.WithAttrs(as)
	if c.source == "" && !h.group {
		for _, a := range as {
			if s := h.st.source(a); s != "" {
				c.source = s
				break
			}
		}
	}
	return &c
}

func (h *handler) WithGroup(name string) slog.Handler {
	c := *h
	c.next = h.next.WithGroup(name)
	c.group = c.group || name != ""
	return &c
}

func (st *state) sourceOf(r slog.Record) string {
	src := ""
	r.Attrs(func(a slog.Attr) bool {
		src = st.source(a)
		return src == ""
	})
	return src
}

func (st *state) source(a slog.Attr) string {
	if !slices.Contains(st.o.Sources, a.Key) {
		return ""
	}
	v := a.Value.Resolve().String()
	if st.o.Group != nil {
		v = st.o.Group(v)
	}
	return v
}

// allow counts one line of msg from src and reports whether it may be
// written.
func (st *state) allow(msg, src string, l slog.Level) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.o.Clock.Now()
	k := key{msg, src}
	c := st.by[k]
	if c != nil && now.Sub(c.start) >= st.o.Every {
		st.summarize(k, c)
		delete(st.by, k)
		c = nil
	}
	if c == nil {
		if len(st.by) >= st.o.MaxSources {
			st.sweep(now)
		}
		if len(st.by) >= st.o.MaxSources {
			k.source = overflow
			c = st.by[k]
		}
		if c == nil {
			c = &count{start: now}
			st.by[k] = c
		}
	}
	if c.lines < st.o.Burst {
		c.lines++
		return true
	}
	if c.suppressed == 0 || l > c.level {
		c.level = l
	}
	c.suppressed++
	if st.timer == nil {
		st.timer = st.o.Clock.AfterFunc(st.o.Every, st.flush)
	}
	return false
}

// flush writes the summaries of the intervals that ended, and comes back
// while some are still counting suppressed lines.
func (st *state) flush() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.timer = nil
	st.sweep(st.o.Clock.Now())
	for _, c := range st.by {
		if c.suppressed > 0 {
			st.timer = st.o.Clock.AfterFunc(st.o.Every, st.flush)
			break
		}
	}
}

// sweep forgets the intervals that ended, summarizing each.
func (st *state) sweep(now time.Time) {
	for k, c := range st.by {
		if now.Sub(c.start) >= st.o.Every {
			st.summarize(k, c)
			delete(st.by, k)
		}
	}
}

func (st *state) summarize(k key, c *count) {
	if c.suppressed == 0 {
		return
	}
	r := slog.NewRecord(st.o.Clock.Now(), c.level, SummaryMsg, 0)
	r.AddAttrs(slog.String("similar", k.msg), slog.String(st.o.Sources[0], k.source),
		slog.Int("suppressed", c.suppressed), slog.Duration("interval", st.o.Every))
	if st.next.Enabled(context.Background(), c.level) {
		_ = st.next.Handle(context.Background(), r)
	}
}
