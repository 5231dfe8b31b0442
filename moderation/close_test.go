package moderation_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// hungStore's sanctions read answers only when its ctx ends: a JetStream
// bucket whose leader is gone.
type hungStore struct {
	persistence.Moderation
	asked chan struct{}
}

func (h hungStore) SanctionsContext(ctx context.Context) ([]persistence.Sanction, error) {
	h.asked <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

// Watch ends with its ctx, and every check with Close, while a read of
// the store hangs: the read is given up, not waited out.
func TestReadsEndWithWatchAndClose(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := hungStore{Moderation: st, asked: make(chan struct{}, 4)}
	svc := moderation.New(moderation.Options{Store: h})
	bound, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wait := func(what string, done <-chan struct{}) {
		t.Helper()
		select {
		case <-done:
		case <-bound.Done():
			t.Fatalf("%s still waits on the hung read", what)
		}
	}

	ctx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() { svc.Watch(ctx, func(moderation.Sanction) {}); close(watched) }()
	wait("the watcher's read", h.asked)
	stopWatch()
	wait("Watch", watched)

	checked := make(chan struct{})
	go func() { svc.Banned("SHA256:troll"); close(checked) }()
	wait("Banned's read", h.asked)
	svc.Close()
	wait("Banned after Close", checked)
	if _, err := svc.InForce(); err == nil {
		t.Error("InForce after Close read nothing, yet says nothing of it")
	}
}
