package lastknown_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/lastknown"
)

var errGone = errors.New("gone")

func isGone(err error) bool { return errors.Is(err, errGone) }

// A read that answers in time is the answer and becomes the copy; one
// that hangs is answered from the copy (stale) or, without one, with
// ErrNoAnswer; its late answer refreshes the copy; "gone" drops it.
func TestReadAnswersInTimeOrFromTheCopy(t *testing.T) {
	c := lastknown.New[string, int](20*time.Millisecond, 8)
	v, stale, err := c.Read("a", isGone, func() (int, error) { return 1, nil })
	if v != 1 || stale || err != nil {
		t.Fatalf("a read in time: %d %v %v", v, stale, err)
	}
	release := make(chan struct{})
	hung := func() (int, error) { <-release; return 2, nil }
	v, stale, err = c.Read("a", isGone, hung)
	if v != 1 || !stale || err != nil {
		t.Fatalf("a hung read of a key with a copy: %d %v %v", v, stale, err)
	}
	if _, _, err := c.Read("b", isGone, hung); !lastknown.NoAnswer(err) {
		t.Fatalf("a hung read of a key without a copy: %v", err)
	}
	close(release)
	later := make(chan struct{})
	defer close(later)
	clocktest.CheckFor(t, 5*time.Second, time.Millisecond, func() error {
		if v, _, _ := c.Read("a", isGone, func() (int, error) { <-later; return 3, nil }); v != 2 {
			return fmt.Errorf("the late answer did not refresh the copy: %d", v)
		}
		return nil
	})
	if _, _, err := c.Read("c", isGone, func() (int, error) { return 0, errGone }); !isGone(err) {
		t.Fatalf("a gone record: %v", err)
	}
}
