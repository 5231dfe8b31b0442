package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// downHook is a webhook receiver that is down (it drops each connection
// unanswered, counting the tries) until it comes up.
type downHook struct {
	srv   *httptest.Server
	up    atomic.Bool
	tries atomic.Int32
	mu    sync.Mutex
	got   []string // the titles of what it took while up
}

func newDownHook(t *testing.T) *downHook {
	h := &downHook{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.up.Load() {
			h.tries.Add(1)
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<16))
		h.mu.Lock()
		h.got = append(h.got, r.Header.Get("Title"))
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *downHook) titles() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.got...)
}

// The outbox's queue outlives its server (issue 40, item 6): bob's
// message waits while his receiver is down, the server is killed (kill
// -9) and another comes up on the same data, tries again from what the
// tables' journals and bob's profile say is owed, and when the receiver
// comes up one message arrives, then the reminder, never the turn twice.
func TestANotificationOutlivesAKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("server processes killed and started")
	}
	t.Parallel()
	h := newDownHook(t)
	host := strings.TrimPrefix(h.srv.URL, "http://")
	dir := t.TempDir()
	env := []string{fmt.Sprintf("%s=%d,%d", clockEnv, time.Now().UnixNano(), 240), notifyEnv + "=http://" + host}
	p1 := startProcessWith(t, dir, env...)
	// The table waits on bob, away, once his receiver (down) hears a try.
	ann, _, _ := bobAwayAtCorrTable(t, p1.addr, "http://"+host+"/bob", func() bool { return h.tries.Load() > 0 })
	ann.c.Close()
	p1.kill(t)
	before := h.tries.Load()

	p2 := startProcessWith(t, dir, env...)
	defer p2.kill(t)
	clocktest.CheckFor(t, 20*time.Second, 20*time.Millisecond, func() error {
		if h.tries.Load() == before {
			return fmt.Errorf("the restarted server never tried bob's receiver again (%d tries before the kill)", before)
		}
		return nil
	})
	h.up.Store(true)
	clocktest.CheckFor(t, 20*time.Second, 20*time.Millisecond, func() error {
		if len(h.titles()) == 0 {
			return fmt.Errorf("nothing arrived once the receiver came up")
		}
		return nil
	})
	if got := h.titles(); !strings.HasPrefix(got[0], "Your move") {
		t.Fatalf("the first message is %q, not bob's move", got[0])
	}
	// The reminder (a quarter of the hour left: within 15 s of wall time)
	// comes; bob's move is never told twice.
	clocktest.CheckFor(t, 30*time.Second, 20*time.Millisecond, func() error {
		for _, title := range h.titles() {
			if strings.HasPrefix(title, "Deadline near") {
				return nil
			}
		}
		return fmt.Errorf("no reminder: %q", h.titles())
	})
	turns := 0
	for _, title := range h.titles() {
		if strings.HasPrefix(title, "Your move") {
			turns++
		}
	}
	if turns != 1 {
		t.Errorf("%d messages of bob's move, want 1: %q", turns, h.titles())
	}
	t.Logf("%d tries while down (%d before the kill); then %q", h.tries.Load(), before, h.titles())
}
