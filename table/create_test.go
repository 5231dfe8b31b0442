package table

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func createHub(t *testing.T) *Hub {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return NewHub(ctx, nil)
}

// A cluster that always says "taken" (every code held) or cannot answer
// (no majority) must not keep Create, and the hub's lock, for ever: it
// draws a bounded number of codes, fails at once on any other error, and
// says so in words a player reads.
func TestCreateGivesUpWithinBoundedTries(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer error
		want   error
		tries  int32
	}{
		{"every code taken", fmt.Errorf("held: %w", ErrCodeTaken), ErrNoFreeCode, createTries},
		{"no majority", errors.New("nats: JetStream system temporarily unavailable"), ErrCannotCreate, 1},
	} {
		t.Run(c.name+" (claim)", func(t *testing.T) {
			h := createHub(t)
			var calls atomic.Int32
			h.Claim = func(string) (Lease, error) { calls.Add(1); return nil, c.answer }
			_, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "alice"})
			if !errors.Is(err, c.want) {
				t.Fatalf("Create: %v, want %v", err, c.want)
			}
			if calls.Load() != c.tries {
				t.Fatalf("%d claims, want %d", calls.Load(), c.tries)
			}
			if h.Running() != 0 || len(h.pending) != 0 {
				t.Fatal("a refused table was left behind")
			}
		})
		t.Run(c.name+" (store)", func(t *testing.T) {
			h := createHub(t)
			var calls atomic.Int32
			h.CodeTaken = func(string) (bool, error) {
				calls.Add(1)
				if errors.Is(c.answer, ErrCodeTaken) {
					return true, nil
				}
				return false, c.answer
			}
			if _, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "alice"}); !errors.Is(err, c.want) {
				t.Fatalf("Create: %v, want %v", err, c.want)
			}
			if calls.Load() != c.tries {
				t.Fatalf("%d checks, want %d", calls.Load(), c.tries)
			}
		})
	}
}

// While Create waits on the cluster, the hub serves everyone else: the
// lobby's list, a lookup, another table's creation.
func TestCreateDoesNotHoldTheHubWhileItClaims(t *testing.T) {
	h := createHub(t)
	release := make(chan struct{})
	claiming := make(chan struct{}, 1)
	h.Claim = func(code string) (Lease, error) {
		if code == "SLOW" {
			claiming <- struct{}{}
			<-release
		}
		return nil, nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "alice", Code: "SLOW"})
		done <- err
	}()
	<-claiming
	others := make(chan error, 1)
	go func() {
		h.List()
		h.Local("SLOW")
		_, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "bob"})
		others <- err
	}()
	select {
	case err := <-others:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the hub waited on another table's claim")
	}
	if _, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "carol", Code: "SLOW"}); !errors.Is(err, ErrCodeTaken) {
		t.Fatalf("a code being claimed was given twice: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if h.Running() != 2 {
		t.Fatalf("%d rooms running, want 2", h.Running())
	}
}

// One player, or one address, holds a handful of open tables, not
// hundreds (one connection made 246 in 20 s): past the bound Create
// refuses, in words, and makes nothing. A table that closes frees its
// place.
func TestCreateBoundsOpenTablesPerPlayerAndAddress(t *testing.T) {
	h := createHub(t)
	h.Limits = Limits{PerPlayer: 2, PerAddr: 3}
	mk := func(host, addr string) (*Room, error) {
		return h.Create(RoomConfig{Game: race{}, Seats: 2, Host: host, Addr: addr})
	}
	first, err := mk("alice", "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mk("alice", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := mk("alice", "10.0.0.2"); !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("a third table for alice: %v", err)
	}
	if _, err := mk("bob", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := mk("carol", "10.0.0.1"); !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("a fourth table from one address: %v", err)
	}
	if _, err := mk("carol", "10.0.0.9"); err != nil {
		t.Fatal(err)
	}
	if h.Running() != 4 {
		t.Fatalf("%d rooms, want 4", h.Running())
	}
	first.Close(Abandoned)
	<-first.Done()
	if _, err := mk("alice", "10.0.0.1"); err != nil {
		t.Fatalf("a closed table still counts: %v", err)
	}
}

// In a cluster a player's tables on the other nodes count too: one player
// does not get the bound once per node.
func TestCreateCountsAPlayersTablesOnOtherNodes(t *testing.T) {
	h := createHub(t)
	h.Limits = Limits{PerPlayer: 3}
	h.Others = otherNode{rooms: []Summary{
		{Code: "AAAA", Host: "alice", Status: StatusPlaying},
		{Code: "BBBB", Host: "alice", Status: StatusWaiting},
		{Code: "CCCC", Host: "alice", Status: StatusOver}, // over: no longer open
		{Code: "DDDD", Host: "bob", Status: StatusWaiting},
	}}
	if _, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "alice"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Create(RoomConfig{Game: race{}, Seats: 2, Host: "alice"}); !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("a fourth table for alice across the cluster: %v", err)
	}
}
