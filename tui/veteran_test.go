package tui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
)

// The veteran title a game gives (a campaign's win at 30) shows in the
// lobby as soon as the game ends, not after a new login (issue 42 item
// 1): the finished table puts it on the winner's seat (table.Over) and
// the session takes it from there; the lobby's row of that table shows it
// after the name too. bob, who did not earn it, shows none.
func TestTheVeteranTitleShowsAtOnce(t *testing.T) {
	a := testApp(t)
	a.Room.OnOver = func(table.RoomRecord) table.Over {
		return table.Over{Badges: map[string]table.Badge{"fp-alice": BadgeVeteran}}
	}
	cfg := a.Room
	cfg.Code, cfg.Game, cfg.Seats, cfg.Host = "V3TS", coin{}, 2, "fp-alice"
	if _, err := a.Hub.Create(cfg); err != nil {
		t.Fatal(err)
	}
	alice, bob := newSession(t, a, "fp-alice", "alice"), newSession(t, a, "fp-bob", "bob")
	star := "★ " + alice.m.th.T("ui.lobby.veteran")
	if strings.Contains(alice.m.View(), star) {
		t.Fatalf("alice is a veteran before the game:\n%s", alice.m.View())
	}
	alice.joinNow("V3TS")
	bob.joinNow("V3TS")
	alice.pump(`bob  ● here`)
	alice.keys("s")
	alice.pump(`flips: 0`)
	bob.pump(`flips: 0`)
	flip := func(s *session) { s.m.at.screen.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")}) }
	flip(alice)
	bob.pump(`flips: 1`)
	flip(bob)
	alice.pump(`flips: 2`)
	flip(alice)
	alice.pump(`over: true`)
	bob.pump(`over: true`)
	for _, s := range []*session{alice, bob} {
		s.m.toLobby(false)
		s.send(lobbyChangedMsg{})
	}
	if v := alice.m.View(); !strings.Contains(v, star) || !strings.Contains(v, "alice★") {
		t.Fatalf("alice's lobby does not show her veteran title at once:\n%s", v)
	}
	if v := bob.m.View(); strings.Contains(v, star) || !strings.Contains(v, "alice★") || strings.Contains(v, "bob★") {
		t.Fatalf("bob's lobby:\n%s", v)
	}
}
