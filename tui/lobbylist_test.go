package tui

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

func TestSharedRoomsSplitsOncePerList(t *testing.T) {
	rooms := []table.Summary{
		{Code: "AAAA", Status: table.StatusWaiting},
		{Code: "BBBB", Status: table.StatusClosed},
		{Code: "CCCC", Status: table.StatusWaiting, Options: table.Options{Private: true}, Host: "h"},
		{Code: "DDDD", Status: table.StatusPlaying},
	}
	var s sharedRooms
	pub, priv := s.split(rooms)
	if len(pub) != 2 || pub[0].Code != "AAAA" || pub[1].Code != "DDDD" {
		t.Fatalf("public = %v", pub)
	}
	if len(priv) != 1 || priv[0].Code != "CCCC" {
		t.Fatalf("private = %v", priv)
	}
	again, _ := s.split(rooms)
	if &again[0] != &pub[0] {
		t.Error("the same hub list was split twice: sessions would not share it")
	}
	if !concerns(priv[0], "h") || concerns(priv[0], "x") {
		t.Error("a private table concerns its host and nobody else here")
	}
	newer := append([]table.Summary(nil), rooms[:1]...)
	if pub, _ := s.split(newer); len(pub) != 1 {
		t.Errorf("a new hub list was not split again: %v", pub)
	}
	// A session still on the previous list keeps sharing its split.
	if old, _ := s.split(rooms); &old[0] != &pub[0] {
		t.Error("the previous list was split again when a session drew it")
	}
}

// A list of open public rooms only (tables at play) is its own public
// part: no copy of every summary at each change of the lobby.
func TestSharedRoomsKeepsAnAllPublicListWhole(t *testing.T) {
	rooms := []table.Summary{{Code: "AAAA", Status: table.StatusWaiting}, {Code: "DDDD", Status: table.StatusPlaying}}
	var s sharedRooms
	pub, priv := s.split(rooms)
	if len(pub) != 2 || &pub[0] != &rooms[0] || len(priv) != 0 {
		t.Fatalf("public = %v (copied: %v), private = %v", pub, len(pub) > 0 && &pub[0] != &rooms[0], priv)
	}
	if cap(pub) != len(pub) {
		t.Error("a reader's append could write into the hub's list")
	}
}

func TestSharedRoomsDrawsALineOncePerThemeAndWidth(t *testing.T) {
	rooms := []table.Summary{{Code: "AAAA", Status: table.StatusWaiting}}
	var s sharedRooms
	s.split(rooms)
	draws := 0
	draw := func() string { draws++; return "line" }
	for range 3 {
		if got := s.line(rooms, lineKey{width: 80, selected: false}, 0, draw); got != "line" {
			t.Fatalf("line = %q", got)
		}
	}
	s.line(rooms, lineKey{width: 100}, 0, draw)
	if draws != 2 {
		t.Errorf("%d draws for two widths", draws)
	}
	stale := []table.Summary{{Code: "AAAA"}}
	s.line(stale, lineKey{width: 80, selected: false}, 0, draw)
	if draws != 3 {
		t.Error("a line for a list that was never split came from the cache")
	}
}

func TestPrivateTablesListedOnlyToThoseTheyConcern(t *testing.T) {
	rooms := []table.Summary{
		{Code: "AAAA", Status: table.StatusWaiting},
		{Code: "CCCC", Status: table.StatusWaiting, Options: table.Options{Private: true, Allowed: []string{"member"}}, Host: "h"},
	}
	p := &lobbyPage{rooms: rooms}
	for who, want := range map[string]int{"h": 2, "member": 1 + 1, "stranger": 1} {
		if got := len(p.filterRooms(who)); got != want {
			t.Errorf("%s sees %d rooms, want %d", who, got, want)
		}
	}
}

// Sessions told of the same change share one list from the hub; a change
// after the list was taken makes a new one.
func TestSharedRoomsAsksTheHubOncePerChange(t *testing.T) {
	a := testApp(t)
	g := a.Games[0]
	before := time.Now()
	first := a.lobbyRooms.current(a.Hub, before)
	if again := a.lobbyRooms.current(a.Hub, before); !sameList(first, again) || first == nil {
		t.Fatal("a second session told of the same change did not share the list")
	}
	if _, err := a.Create(g, uikit.TableSpec{Seats: 2, Title: game.Raw("t")}, table.Player{ID: "h", Name: "h"}); err != nil {
		t.Fatal(err)
	}
	if after := a.lobbyRooms.current(a.Hub, time.Now()); len(after) != 1 {
		t.Errorf("after a table opened the list has %d rooms", len(after))
	}
}

// Lobby sessions hear of a change through the app's one hub watcher, a
// session away from the lobby (at a table) is not woken for it, and the
// teller stops with the last of them.
func TestLobbyWatchersHearOfChanges(t *testing.T) {
	a := testApp(t)
	inLobby := func() bool { return true }
	var away atomic.Bool
	away.Store(true)
	ch1, stop1 := a.watchLobby(inLobby)
	ch2, stop2 := a.watchLobby(inLobby)
	ch3, stop3 := a.watchLobby(func() bool { return !away.Load() })
	open := func(title string) {
		t.Helper()
		if _, err := a.Create(a.Games[0], uikit.TableSpec{Seats: 2, Title: game.Raw(title)}, table.Player{ID: "h", Name: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	open("t")
	for i, ch := range []<-chan struct{}{ch1, ch2} {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("watcher %d never heard that a table opened", i)
		}
	}
	// The teller tells everyone under its lock: once we hold it, it has
	// been through the list, and the session at a table was passed over.
	a.lobbyWatch.mu.Lock()
	a.lobbyWatch.mu.Unlock() //nolint:staticcheck // SA2001: empty on purpose, it waits out the telling
	select {
	case <-ch3:
		t.Fatal("a session away from the lobby was woken for a lobby change")
	default:
	}
	away.Store(false) // back in the lobby: the next change reaches it
	open("u")
	select {
	case <-ch3:
	case <-time.After(10 * time.Second):
		t.Fatal("a session back in the lobby never heard of a change")
	}
	stop1()
	stop2()
	stop3()
	a.lobbyWatch.mu.Lock()
	defer a.lobbyWatch.mu.Unlock()
	if a.lobbyWatch.quit != nil || len(a.lobbyWatch.watchers) != 0 {
		t.Error("the teller still runs with no lobby session")
	}
}
