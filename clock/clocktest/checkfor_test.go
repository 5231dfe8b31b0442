package clocktest

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestCheckForReturnsOnceTrue(t *testing.T) {
	var calls atomic.Int32
	CheckFor(t, time.Second, time.Millisecond, func() error {
		if calls.Add(1) < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	if got := calls.Load(); got != 3 {
		t.Fatalf("f called %d times, want 3", got)
	}
}

// fatalTB records a Fatalf instead of ending the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = format
	panic(f)
}

func TestCheckForFailsWithTheLastError(t *testing.T) {
	tb := &fatalTB{TB: t}
	func() {
		defer func() {
			if r := recover(); r != tb {
				t.Fatalf("recovered %v, want the Fatalf", r)
			}
		}()
		CheckFor(tb, 10*time.Millisecond, time.Millisecond, func() error { return errors.New("never") })
	}()
	if tb.msg == "" {
		t.Fatal("CheckFor returned without failing")
	}
}

func TestFastRunsFactorTimesFaster(t *testing.T) {
	c := NewFast(100)
	t0 := c.Now()
	fired := make(chan time.Time, 1)
	c.AfterFunc(time.Second, func() { fired <- c.Now() })
	select {
	case at := <-fired:
		if got := at.Sub(t0); got < time.Second {
			t.Fatalf("fired after %v of fast time, want at least 1s", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a 1s timer on a 100x clock did not fire within 5s of wall time")
	}
}
