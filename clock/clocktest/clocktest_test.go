package clocktest

import (
	"slices"
	"testing"
	"time"
)

// Advance runs what is due by its end, in deadline order (ties in the
// order they were set), each at its own instant, including a timer set by
// a callback on the way; a stopped timer and one due later do not run.
func TestAdvanceRunsWhatIsDueInOrder(t *testing.T) {
	c := New()
	var ran []string
	at := func(name string) func() {
		return func() { ran = append(ran, name+"@"+c.Now().Sub(Epoch).String()) }
	}
	c.AfterFunc(3*time.Second, at("c"))
	c.AfterFunc(time.Second, func() {
		at("a")()
		c.AfterFunc(time.Second, at("chained"))
	})
	c.AfterFunc(3*time.Second, at("c2"))
	stopped := c.AfterFunc(2*time.Second, at("stopped"))
	c.AfterFunc(time.Minute, at("later"))
	c.WaitTimers(t, 5)
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop reports wrongly whether it prevented the call")
	}
	if c.Live() != 4 {
		t.Fatalf("%d live timers, want 4", c.Live())
	}
	c.Advance(10 * time.Second)
	if want := []string{"a@1s", "chained@2s", "c@3s", "c2@3s"}; !slices.Equal(ran, want) {
		t.Fatalf("ran %v, want %v", ran, want)
	}
	if got := c.Now().Sub(Epoch); got != 10*time.Second || c.Live() != 1 {
		t.Fatalf("now +%v with %d live, want +10s and the later timer", got, c.Live())
	}
}
