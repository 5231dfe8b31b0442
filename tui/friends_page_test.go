package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/table"
)

// listedFriends is a Friends with fixed lists.
type listedFriends struct{ lists FriendLists }

func (f listedFriends) Lists(table.Player) (FriendLists, error)  { return f.lists, nil }
func (listedFriends) Ask(table.Player, Person) (game.Msg, error) { return game.Msg{}, nil }
func (listedFriends) Accept(table.Player, Person) error          { return nil }
func (listedFriends) Decline(table.Player, Person) error         { return nil }
func (listedFriends) Remove(table.Player, Person) error          { return nil }
func (listedFriends) Circle(string) (presence.Circle, func())    { return presence.Circle{}, nil }

func namedPeople(prefix string, n int) []Person {
	var out []Person
	for i := range n {
		out = append(out, Person{ID: fmt.Sprintf("fp-%s%02d", prefix, i), Name: fmt.Sprintf("%s%02d", prefix, i)})
	}
	return out
}

// TestTheFriendsPageScrolls: with 60 friends, requests both ways and
// people met, more than 80×24 holds, ↓ takes the cursor through every row
// with the view following it (the row under the cursor always on screen,
// an arrow where more is above or below), and ↑ back to the first.
func TestTheFriendsPageScrolls(t *testing.T) {
	a := testApp(t)
	l := FriendLists{Askers: namedPeople("asker", 3), Friends: namedPeople("friend", 60), Asked: namedPeople("asked", 2), Met: namedPeople("met", 5)}
	a.Friends = listedFriends{l}
	s := newSession(t, a, "fp-me", "me")
	s.keys("F")
	rows := len(l.Askers) + len(l.Friends) + len(l.Asked) + len(l.Met)
	cursor := regexp.MustCompile(`▸ (\S+)`)
	up, down := regexp.MustCompile(`(?m)^\s*↑\s*$`), regexp.MustCompile(`(?m)^\s*↓\s*$`)
	check := func(want Person, step int) string {
		t.Helper()
		v := s.m.View()
		lines := strings.Split(v, "\n")
		if len(lines) > 24 {
			t.Fatalf("step %d: %d lines at 80×24:\n%s", step, len(lines), v)
		}
		if m := cursor.FindStringSubmatch(v); m == nil || m[1] != want.Name {
			t.Fatalf("step %d: the cursor's row is not on screen (want %s):\n%s", step, want.Name, v)
		}
		if !strings.Contains(lines[len(lines)-1], "esc") {
			t.Fatalf("step %d: the help bar is gone:\n%s", step, v)
		}
		return v
	}
	all := append(append(append(append([]Person{}, l.Askers...), l.Friends...), l.Asked...), l.Met...)
	v := check(all[0], 0)
	if up.MatchString(v) || !down.MatchString(v) {
		t.Fatalf("at the top: want an arrow down only:\n%s", v)
	}
	for i := 1; i < rows; i++ {
		s.send(tea.KeyMsg{Type: tea.KeyDown})
		v = check(all[i], i)
		if i == 30 && (!up.MatchString(v) || !down.MatchString(v)) {
			t.Fatalf("in the middle: want both arrows:\n%s", v)
		}
	}
	if !strings.Contains(v, "Players of your last games") || down.MatchString(v) {
		t.Fatalf("at the bottom: want the last section, no arrow down:\n%s", v)
	}
	for i := rows - 2; i >= 0; i-- {
		s.send(tea.KeyMsg{Type: tea.KeyUp})
		check(all[i], i)
	}
}
