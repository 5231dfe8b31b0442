package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGHUP reads the key files again at once.
func TestHangupReloads(t *testing.T) {
	reloaded := make(chan struct{}, 1)
	stop := reloadOnHangup(func() { reloaded <- struct{}{} })
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reloaded:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGHUP did not reload")
	}
}

// Issue 36 item 8: --metrics-addr :PORT listened on every interface
// without a word, while --pprof refuses anything but loopback.
func TestMetricsOffLoopbackIsWarnedAbout(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn string // "" for none
	}{
		{"127.0.0.1:0", ""},
		{"[::1]:0", ""},
		{":0", "--metrics-addr listens on every interface"},
		{"0.0.0.0:0", "--metrics-addr listens on every interface"},
	} {
		stop, bound, err := serveOps(tc.addr, http.NotFoundHandler())
		if err != nil {
			t.Logf("%s: %v (no such interface here)", tc.addr, err)
			continue
		}
		var logs bytes.Buffer
		warnIfExposed(slog.New(slog.NewTextHandler(&logs, nil)), bound)
		stop()
		switch got := logs.String(); {
		case tc.warn == "" && got != "":
			t.Errorf("%s: warned %q", tc.addr, got)
		case tc.warn != "" && (!strings.Contains(got, tc.warn) || !strings.Contains(got, "flag=--metrics-addr")):
			t.Errorf("%s: logged %q, want a warning naming the flag", tc.addr, got)
		}
	}
}
