package logthrottle

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// buffer is a log's text, safe to share with a timer's goroutine.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.b.String()), "\n")
}

func hostOnly(s string) string {
	if h, _, err := net.SplitHostPort(s); err == nil {
		return h
	}
	return s
}

func newLog(c *clocktest.Manual, o Options) (*slog.Logger, *buffer) {
	buf := &buffer{}
	o.Clock, o.Group = c, hostOnly
	return slog.New(New(slog.NewTextHandler(buf, nil), o)), buf
}

// 15,169 dropped connections in 5 s wrote 1.8 MB of warnings: a flood of
// one refusal from one address writes Burst lines and then one count.
func TestAFloodFromOneAddressWritesBurstLinesAndACount(t *testing.T) {
	c := clocktest.New()
	log, buf := newLog(c, Options{Every: time.Minute, Burst: 5})
	for i := range 10000 {
		log.Warn("connection dropped: too many connections logging in", "remote", fmt.Sprintf("192.0.2.7:%d", 1024+i%60000))
	}
	log.Warn("connection dropped: too many connections logging in", "remote", "198.51.100.1:4000")
	lines := buf.lines()
	if len(lines) != 6 {
		t.Fatalf("%d lines during the flood, want 5 from the flooding address and 1 from another:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[5], "remote=198.51.100.1:4000") {
		t.Errorf("another address was not logged: %s", lines[5])
	}
	c.Advance(time.Minute)
	lines = buf.lines()
	if len(lines) != 7 {
		t.Fatalf("%d lines after the interval, want one more:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	want := regexp.MustCompile(`level=WARN msg="similar lines suppressed" similar="connection dropped: too many connections logging in" remote=192\.0\.2\.7 suppressed=9995 interval=1m0s`)
	if !want.MatchString(lines[6]) {
		t.Errorf("summary line %q", lines[6])
	}
	// The next interval starts afresh.
	log.Warn("connection dropped: too many connections logging in", "remote", "192.0.2.7:1")
	if n := len(buf.lines()); n != 8 {
		t.Errorf("%d lines, want the new interval's first line", n)
	}
}

func TestLinesWithoutASourceAreNeverHeldBack(t *testing.T) {
	c := clocktest.New()
	log, buf := newLog(c, Options{Burst: 2})
	for range 50 {
		log.Info("room restored", "room", "ABCD")
	}
	if n := len(buf.lines()); n != 50 {
		t.Errorf("%d lines, want 50", n)
	}
}

func TestSourceSetWithWithIsCounted(t *testing.T) {
	c := clocktest.New()
	log, buf := newLog(c, Options{Burst: 3})
	l := log.With("remote", "192.0.2.9:22")
	for range 100 {
		l.Info("handshake timed out")
	}
	if n := len(buf.lines()); n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
}

// Many sources are bounded too: past MaxSources, new ones share a budget.
func TestManySourcesShareOneBudgetPastTheBound(t *testing.T) {
	c := clocktest.New()
	log, buf := newLog(c, Options{Burst: 2, MaxSources: 10})
	for i := range 5000 {
		log.Warn("dropped", "remote", fmt.Sprintf("10.0.%d.%d:1", i/250, i%250))
	}
	// 10 remembered sources × 1 line each, then the rest share 2 lines.
	if n := len(buf.lines()); n != 12 {
		t.Errorf("%d lines, want 12", n)
	}
	c.Advance(time.Minute)
	if last := buf.lines()[len(buf.lines())-1]; !strings.Contains(last, `remote="(other sources)" suppressed=4988`) {
		t.Errorf("summary %q", last)
	}
}
