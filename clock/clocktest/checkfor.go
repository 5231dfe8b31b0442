package clocktest

import (
	"testing"
	"time"
)

// CheckFor calls f every interval until it returns nil, and fails the test
// with f's last error if total passes first. It is for effects a test
// cannot be told about (a goroutine releasing a slot, a row reaching the
// store); a test that can wait on a channel or on a Manual clock does that
// instead. The model is nats-server's checkFor.
func CheckFor(t testing.TB, total, interval time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(total)
	var err error
	for {
		if err = f(); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not so after %v: %v", total, err)
		}
		time.Sleep(interval)
	}
}
