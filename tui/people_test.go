package tui

import (
	"strings"
	"sync"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
)

// memRelations keeps lists in memory, as the server does a guest's.
type memRelations struct {
	mu    sync.Mutex
	lists map[string]*PlayerLists
}

func (r *memRelations) Lists(p table.Player) (PlayerLists, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.lists[p.ID]; l != nil {
		return *l, nil
	}
	return PlayerLists{}, nil
}

func (r *memRelations) Set(p table.Player, which RelationList, other Person, on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lists == nil {
		r.lists = map[string]*PlayerLists{}
	}
	l := r.lists[p.ID]
	if l == nil {
		l = &PlayerLists{}
		r.lists[p.ID] = l
	}
	list := l.List(which)
	if on {
		*list = append(*list, other)
	} else {
		for i, q := range *list {
			if q.ID == other.ID {
				*list = append((*list)[:i], (*list)[i+1:]...)
				break
			}
		}
	}
	return nil
}

func (r *memRelations) has(id string, which RelationList, other string) bool {
	l, _ := r.Lists(table.Player{ID: id})
	return l.Has(which, other)
}

type memReports struct {
	mu  sync.Mutex
	got []Report
}

func (r *memReports) File(rep Report) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, rep)
	return nil
}

func (r *memReports) all() []Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Report(nil), r.got...)
}

func peopleApp(t *testing.T) (*App, *memRelations, *memReports) {
	a := testApp(t)
	rel, rep := &memRelations{}, &memReports{}
	a.Relations, a.Reports = rel, rep
	a.Room.Blocked = func(x, y string) bool { return rel.has(x, BlockList, y) }
	return a, rel, rep
}

// TestThePickerIgnoresReportsAndRemoves: at alice's waiting room bob
// talks; alice opens the players (I), ignores bob (his lines leave her
// screen, his sitting there does not), reports him with a reason (the
// report carries the table and his lines), blocks him, then removes him
// (X, y): bob is told and cannot come back.
func TestThePickerIgnoresReportsAndRemoves(t *testing.T) {
	a, rel, rep := peopleApp(t)
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n", "enter")
	v := alice.pump(`Table [A-Z0-9]{4}`)
	code := codeRe.FindStringSubmatch(v)[1]
	bob := newSession(t, a, "fp-bob", "bob")
	bob.keys("enter")
	bob.pump(`bob \(you\)`)
	bob.keys("t")
	bob.keys("buy cheap gold")
	bob.keys("enter")
	alice.pump(`bob: buy cheap gold`)

	alice.keys("I")
	v = alice.pump(`Players at table ` + code)
	if !strings.Contains(v, "▸ bob") {
		t.Fatalf("the picker does not list bob:\n%s", v)
	}
	alice.keys("i")
	if !rel.has("fp-alice", IgnoreList, "fp-bob") || !strings.Contains(alice.m.View(), "ignored") {
		t.Fatalf("bob is not ignored:\n%s", alice.m.View())
	}
	alice.keys("r")
	alice.keys("spam in the chat")
	alice.keys("enter")
	alice.pump(`has reached the admins`)
	reps := rep.all()
	if len(reps) != 1 || reps[0].About != "fp-bob" || reps[0].From != "fp-alice" || reps[0].Table != code ||
		reps[0].Reason != "spam in the chat" || len(reps[0].Evidence) != 1 || reps[0].Evidence[0] != "bob: buy cheap gold" {
		t.Fatalf("report: %+v", reps)
	}
	alice.keys("ragain", "enter") // typed together: r opens the prompt, the rest is the reason
	alice.pump(`one report a minute`)
	alice.keys("esc")
	v = alice.pump(`bob  ● here`)
	if strings.Contains(v, "buy cheap gold") {
		t.Fatalf("bob's line is still drawn for alice, who ignores him:\n%s", v)
	}
	bob.keys("t", "still here", "enter")
	alice.pump(`bob  ● here`)
	if strings.Contains(alice.m.View(), "still here") {
		t.Fatal("bob's new line is drawn for alice")
	}

	alice.keys("down") // the seat cursor on bob
	alice.keys("X")
	alice.pump(`Remove bob from the table for good\?`)
	alice.keys("y")
	bob.pump(`The host removed you from table ` + code)
	if bob.m.at != nil {
		t.Fatal("bob is still at the table")
	}
	bob.send(joinMsg{code: code})
	bob.pump(`you cannot join this table`)
}

// TestBlockedPlayerIsRefusedAtTheBlockersTable: alice blocks bob from
// her profile's lists (she met him before); bob's join of her next table
// is refused with the neutral words, carol's is not.
func TestBlockedPlayerIsRefusedAtTheBlockersTable(t *testing.T) {
	a, rel, _ := peopleApp(t)
	rel.Set(table.Player{ID: "fp-alice"}, BlockList, Person{ID: "fp-bob", Name: "bob"}, true)
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n", "enter")
	v := alice.pump(`Table [A-Z0-9]{4}`)
	code := codeRe.FindStringSubmatch(v)[1]
	bob := newSession(t, a, "fp-bob", "bob")
	bob.send(joinMsg{code: code})
	bob.pump(`you cannot join this table`)
	carol := newSession(t, a, "fp-carol", "carol")
	carol.send(joinMsg{code: code})
	carol.pump(`carol \(you\)`)
}

// TestThePickerAndListsFitInEveryLanguage: the players' picker (with a
// notice and a confirmation up) and the profile's lists, at 80×24 in every
// language with 20-letter Cyrillic names: no line is wider than the
// window (every key checks it); the English picker is a golden.
func TestThePickerAndListsFitInEveryLanguage(t *testing.T) {
	for _, l := range i18n.Langs {
		t.Run(string(l), func(t *testing.T) {
			a, _, _ := peopleApp(t)
			a.Records = profRecords{}
			host := newSessionIn(t, a, "fp-host", "Александра Валерьевн", l)
			host.keys("n", "enter")
			host.pump(`Александра`)
			guest := newSessionIn(t, a, "fp-guest", "Вениамин Константино", l)
			guest.send(joinMsg{code: a.Hub.List()[0].Code})
			guest.pump(`Вениамин`)
			host.pump(`Вениамин`)
			host.keys("I", "i", "b")
			host.keys("x")
			if l == i18n.English {
				code := a.Hub.List()[0].Code
				golden(t, "people-picker", strings.ReplaceAll(host.m.View(), code, "CODE"))
			}
			host.keys("n", "esc", "down", "X", "n")
			host.keys("r", "x", "esc")
			host.keys("L", "p", "I")
			if v := host.m.View(); !strings.Contains(v, "Вениамин") {
				t.Fatalf("the profile's lists:\n%s", v)
			}
			host.keys("enter", "enter", "esc")
		})
	}
}

// profRecords is a profile with no games, for the profile's pages.
type profRecords struct{ Records }

func (profRecords) Profile(id string) (Profile, error) {
	return Profile{ID: id, Name: "Александра Валерьевн"}, nil
}
func (profRecords) Finished(string, int) ([]GameRecord, error) { return nil, nil }
func (profRecords) Campaigns(string) ([]Campaign, error)       { return nil, nil }

// TestListChangesArePaced: each change is a profile write, so a session
// makes ten at once and then one every two seconds; the eleventh in a row
// is refused, said, and not written.
func TestListChangesArePaced(t *testing.T) {
	a, rel, _ := peopleApp(t)
	th := a.Theme(nil, i18n.English, false)
	var l SessionLists
	me, bob := table.Player{ID: "fp-alice", Name: "alice"}, Person{ID: "fp-bob", Name: "bob"}
	for i := range changeBurst {
		if said := a.SetRelation(th, me, &l, IgnoreList, bob, i%2 == 0); strings.Contains(said, "not so fast") {
			t.Fatalf("change %d refused: %s", i+1, said)
		}
	}
	if said := a.SetRelation(th, me, &l, IgnoreList, bob, true); !strings.Contains(said, "not so fast") {
		t.Fatalf("the change after the burst: %q", said)
	}
	if rel.has("fp-alice", IgnoreList, "fp-bob") {
		t.Fatal("the refused change was written")
	}
}

// replayRecords serves one finished coin game in which bob talked.
type replayRecords struct{ profRecords }

func (replayRecords) Replay(code string) (Replay, error) {
	chat := game.Event{Audience: game.Everyone(), Kind: game.Chat, From: 1, Text: "buy my gold"}
	flip := game.Event{Audience: game.Everyone(), From: game.NoSeat, Text: "flip 1"}
	return Replay{Code: code, Title: game.Raw("Coin"), Game: "coin",
		Seats: []table.SeatInfo{{Seat: 0, ID: "fp-alice", Name: "alice"}, {Seat: 1, ID: "fp-bob", Name: "bob"}},
		Steps: []table.Step{{View: coinState{Seats: 2}, Events: []game.Event{chat, flip}}}}, nil
}

// TestAReplayLeavesOutIgnoredChat: the replay of a finished game does not
// show the chat of a player this session ignores; its moves stay.
func TestAReplayLeavesOutIgnoredChat(t *testing.T) {
	a, rel, _ := peopleApp(t)
	a.Records = replayRecords{}
	for _, ignoring := range []bool{false, true} {
		if ignoring {
			rel.Set(table.Player{ID: "fp-alice"}, IgnoreList, Person{ID: "fp-bob", Name: "bob"}, true)
		}
		s := newSession(t, a, "fp-alice", "alice")
		openReplay(s.m, "K7QX", nil)
		v := s.m.View()
		if !strings.Contains(v, "flip 1") || strings.Contains(v, "buy my gold") != !ignoring {
			t.Fatalf("ignoring %v, the replay shows:\n%s", ignoring, v)
		}
	}
}

// TestAGuestReachesTheListsFromTheLobby: a guest has no profile, so I in
// the lobby opens the lists, where a player is taken off.
func TestAGuestReachesTheListsFromTheLobby(t *testing.T) {
	a, rel, _ := peopleApp(t)
	me := table.Player{ID: "guest:00aa", Name: "gość", Guest: true}
	rel.Set(me, IgnoreList, Person{ID: "fp-bob", Name: "bob"}, true)
	ctx := t.Context()
	s := &session{t: t, m: newRoot(a, Session{Ctx: ctx, Player: me, Lang: i18n.English}, a.Theme(nil, i18n.English, false))}
	s.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	s.keys("I")
	v := s.m.View()
	if !strings.Contains(v, "Players you keep away") || !strings.Contains(v, "▸ bob") || !strings.Contains(v, "until the server restarts") {
		t.Fatalf("the guest's lists:\n%s", v)
	}
	s.keys("enter")
	if rel.has(me.ID, IgnoreList, "fp-bob") || !strings.Contains(s.m.View(), "No longer ignored: bob.") {
		t.Fatalf("bob is still ignored:\n%s", s.m.View())
	}
	s.keys("esc")
	if s.m.page != page(s.m.lobby) {
		t.Fatal("esc did not go back to the lobby")
	}
}
