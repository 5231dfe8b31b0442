package table

import (
	"context"
	"errors"
	"testing"
)

// TestRemovedPlayerCannotRejoinEvenAfterARestart: the host removes bob
// from the waiting room; bob's session is told why, his seat opens, and
// neither he nor a new session of his may join again, also once the room
// is restored from its record.
func TestRemovedPlayerCannotRejoinEvenAfterARestart(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Journal: j})
	alice, _ := join(t, r, "alice")
	bob, bobSeat := join(t, r, "bob")
	ctx := context.Background()

	if err := r.Remove(ctx, bob, 0); !errors.Is(err, ErrNotHost) {
		t.Fatalf("bob removing the host: %v, want ErrNotHost", err)
	}
	if err := r.Remove(ctx, alice, 0); !errors.Is(err, errRemoveWho) {
		t.Fatalf("the host removing herself: %v", err)
	}
	if err := r.Remove(ctx, alice, bobSeat); err != nil {
		t.Fatal(err)
	}
	closedFor(t, bob, Removed)
	u := waitFor(t, alice, "bob's seat open", func(u Update) bool { return len(u.Seats) > 1 && u.Seats[bobSeat].ID == "" })
	if u.Seats[bobSeat].Name != "" {
		t.Fatalf("bob's seat after removal: %+v", u.Seats[bobSeat])
	}
	for _, watching := range []bool{false, true} {
		if _, err := r.Join(ctx, Player{ID: "bob", Name: "bob"}, NewMailbox(), watching); !errors.Is(err, ErrCannotJoin) {
			t.Fatalf("bob joining again (watch %v): %v, want ErrCannotJoin", watching, err)
		}
	}
	join(t, r, "carol") // anyone else still may

	rec, _ := j.Room(r.Code())
	r.Close(Restarting)
	<-r.Done()
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j}, rec, j.Log(r.Code()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Join(ctx, Player{ID: "bob", Name: "bob"}, NewMailbox(), false); !errors.Is(err, ErrCannotJoin) {
		t.Fatalf("bob after a restart: %v, want ErrCannotJoin", err)
	}
}

// TestRemoveOnlyBeforeTheStart: once the game runs nobody is removed.
func TestRemoveOnlyBeforeTheStart(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(context.Background(), alice, 1); !errors.Is(err, ErrStarted) {
		t.Fatalf("remove after the start: %v, want ErrStarted", err)
	}
}

// TestBlockedPlayerCannotSitAtTheBlockersTable: a player the host blocked
// is refused, with the same neutral words as a removed one; a player the
// host did not block sits; at another host's table the blocked player is
// welcome.
func TestBlockedPlayerCannotSitAtTheBlockersTable(t *testing.T) {
	blocks := Blocks(func(a, b string) bool { return a == "alice" && b == "troll" })
	_, r := newTestRoom(t, race{}, RoomConfig{Blocked: blocks})
	join(t, r, "alice")
	if _, err := r.Join(context.Background(), Player{ID: "troll", Name: "troll"}, NewMailbox(), false); !errors.Is(err, ErrCannotJoin) {
		t.Fatalf("blocked player joining: %v, want ErrCannotJoin", err)
	}
	if _, seat := join(t, r, "bob"); seat < 0 {
		t.Fatal("bob was not seated")
	}
	_, other := newTestRoom(t, race{}, RoomConfig{Host: "bob", Blocked: blocks})
	if _, seat := join(t, other, "troll"); seat < 0 {
		t.Fatal("the blocked player was kept from a table alice does not host")
	}
}

// TestApartKeepsBlockedPlayersFromOneTable: matching asks Apart of every
// table, and it answers no when either side blocked the other.
func TestApartKeepsBlockedPlayersFromOneTable(t *testing.T) {
	blocks := Blocks(func(a, b string) bool { return a == "alice" && b == "troll" })
	sum := Summary{Players: []string{"alice", "bob"}}
	if blocks.Apart(sum, "troll") {
		t.Fatal("troll matched to a table where alice, who blocked them, sits")
	}
	if blocks.Apart(Summary{Players: []string{"troll"}}, "alice") {
		t.Fatal("alice matched to a table where troll, whom she blocked, sits")
	}
	if !blocks.Apart(sum, "carol") || !Blocks(nil).Apart(sum, "troll") {
		t.Fatal("Apart kept apart players nobody blocked")
	}
}

// TestACampaignTableKeepsApartWhomeverTheHost: at a campaign's mission
// table a player is refused while someone seated blocked them (or they
// blocked someone seated), though neither is the host.
func TestACampaignTableKeepsApartWhomeverTheHost(t *testing.T) {
	blocks := Blocks(func(a, b string) bool { return a == "bob" && b == "troll" })
	member := func(string, string) bool { return true }
	_, r := newTestRoom(t, race{}, RoomConfig{Options: Options{Campaign: "c1"}, IsMember: member, Blocked: blocks})
	join(t, r, "alice")
	if _, err := r.Join(context.Background(), Player{ID: "troll", Name: "troll"}, NewMailbox(), false); err != nil {
		t.Fatalf("troll before bob sits: %v", err)
	}
	_, r2 := newTestRoom(t, race{}, RoomConfig{Options: Options{Campaign: "c2"}, IsMember: member, Blocked: blocks})
	join(t, r2, "alice")
	join(t, r2, "bob")
	if _, err := r2.Join(context.Background(), Player{ID: "troll", Name: "troll"}, NewMailbox(), false); !errors.Is(err, ErrCannotJoin) {
		t.Fatalf("troll at bob's campaign table: %v, want ErrCannotJoin", err)
	}
}
