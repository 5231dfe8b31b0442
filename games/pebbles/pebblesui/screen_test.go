package pebblesui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/pebbles"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// seated is a screen at a fresh table of heap pebbles, for seat.
func seated(t *testing.T, l i18n.Lang, heap int, seat game.Seat) *Screen {
	t.Helper()
	opts, _ := json.Marshal(pebbles.Options{Heap: heap})
	st, _, err := pebbles.Game{}.New(game.Setup{Game: pebbles.ID, Names: []string{"Zofia", "Bruno"}, Options: opts}, 1)
	if err != nil {
		t.Fatal(err)
	}
	th := uikit.New(nil)
	th.SetLang(l)
	s := New(th)
	s.SetUpdate(table.Update{Game: pebbles.ID, Seat: seat, Seq: 4, Started: true, View: pebbles.Game{}.View(st, seat)})
	return s
}

func keyOf(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

// On their turn a player takes with 1 and 2, for the Update they see;
// out of turn, or watching, the keys do nothing.
func TestTheKeysTakePebbles(t *testing.T) {
	s := seated(t, i18n.English, 7, 0)
	for n, r := range []rune{'1', '2'} {
		cmd := s.Update(keyOf(r))
		if cmd == nil {
			t.Fatalf("%c did nothing", r)
		}
		if got, ok := cmd().(uikit.ActMsg); !ok || got.Action != pebbles.Take(n+1) || got.Seq != 4 {
			t.Errorf("%c sent %+v", r, cmd())
		}
	}
	for _, seat := range []game.Seat{1, game.Spectator} {
		if cmd := seated(t, i18n.English, 7, seat).Update(keyOf('1')); cmd != nil {
			t.Errorf("seat %d took a pebble out of turn", seat)
		}
	}
	if !strings.Contains(s.View(), "7 pebbles in the heap") || !strings.Contains(s.View(), "Your turn") {
		t.Errorf("the table:\n%s", s.View())
	}
}

// Plain mode offers the same takes, by number or by the word, and the
// word also as an ASCII terminal shows it.
func TestPlainModeTakesByWord(t *testing.T) {
	s := seated(t, i18n.Polish, 7, 0)
	moves := s.Moves()
	if len(moves) != 2 || !slices.Contains(moves[1].Commands, "weź 2") || !slices.Contains(moves[1].Commands, "wez 2") ||
		moves[1].Action != pebbles.Take(2) {
		t.Fatalf("moves %+v", moves)
	}
	if look := strings.Join(s.Look(), "\n"); !strings.Contains(look, "7 kamyków na stosie") || !strings.Contains(look, "Twój ruch") {
		t.Errorf("look:\n%s", look)
	}
	if len(seated(t, i18n.Polish, 7, 1).Moves()) != 0 {
		t.Error("moves out of turn")
	}
}
