package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// stuckSanctions is a moderation store whose sanctions read does not
// answer until released: a cluster's bucket without its leader.
type stuckSanctions struct {
	persistence.Moderation
	once    sync.Once
	asked   chan struct{} // closed at the first read
	release chan struct{}
}

func (s *stuckSanctions) Sanctions() ([]persistence.Sanction, error) {
	s.once.Do(func() { close(s.asked) })
	<-s.release
	return s.Moderation.Sanctions()
}

// A node whose moderation read hangs still shuts down within its
// context: neither the ban watcher nor a check as rooms close waits on it.
func TestShutdownWaitsForNoModerationRead(t *testing.T) {
	t.Parallel()
	stuck := &stuckSanctions{asked: make(chan struct{}), release: make(chan struct{})}
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Guests: true,
		moderationStore: func(m persistence.Moderation) persistence.Moderation {
			stuck.Moderation = m
			return stuck
		}})
	if err != nil {
		t.Fatal(err)
	}
	sshtest.Start(t, srv)
	t.Cleanup(func() { close(stuck.release) }) // runs before sshtest's Shutdown
	select {
	case <-stuck.asked: // the watcher's first read is under way
	case <-time.After(10 * time.Second):
		t.Fatal("the ban watcher never read the sanctions")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Shutdown still waits on a moderation read its context gave up on")
	}
}
