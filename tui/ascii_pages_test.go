package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
)

// In ASCII mode the words are romanised before the pages are laid out,
// and romanised Russian is longer than Cyrillic (Щ is four letters): the
// lobby, its help, the form and the waiting room still fit 80 columns in
// every language, with a 20-letter Cyrillic name, and show it romanised
// (issue 30 item 9).
func TestEveryPageFitsInASCII(t *testing.T) {
	for _, l := range i18n.Langs {
		t.Run(string(l), func(t *testing.T) {
			a := testApp(t)
			for i, code := range []string{"K7QX", "P2MD"} {
				if _, err := a.Hub.Create(table.RoomConfig{Code: code, Game: coin{}, Title: game.Raw(fmt.Sprintf("Coin · %d", i+2)), Seats: i + 2, Host: "fp-x"}); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			sess := Session{Ctx: ctx, Player: table.Player{ID: "fp-alice", Name: "Щукина Ярославовна"}, Lang: l, ASCII: true}
			s := &session{t: t, m: newRoot(a, sess, a.Theme(nil, l, true))}
			s.send(tea.WindowSizeMsg{Width: 80, Height: 24})
			s.send(lobbyChangedMsg{})
			if v := s.m.View(); !strings.Contains(v, "Shchukina Yaroslavovna") {
				t.Fatalf("the lobby does not show the name romanised:\n%s", v)
			}
			s.keys("?")
			s.keys("x")
			s.keys("n")
			s.keys("down", "down", "l")
			s.keys("esc")
			s.keys("down", "enter")
			s.pump(`Shchukina`)
			s.keys("?")
			s.keys("x")
		})
	}
}
