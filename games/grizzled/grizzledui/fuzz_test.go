package grizzledui

import (
	"encoding/json"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// FuzzScreenKeys feeds arbitrary input to the table screen of a real game,
// one byte at a time as keys (printable runes, control keys, escape, and
// multi-rune bursts): the screen never panics, always fits its window, and
// every action it emits is one the engine lists as legal. Accepted actions
// are applied, so the fuzzer walks deep into games.
func FuzzScreenKeys(f *testing.F) {
	f.Add(uint64(1), []byte("\r\rpppp\rwwww"))
	f.Add(uint64(7), []byte("3\rs\x1bc1\r2p"))
	f.Add(uint64(42), []byte("\x1b[A\x1b[B\x00\xff\xfe\t xnr"))
	g := grizzled.Game{}
	controls := []tea.KeyType{tea.KeyEnter, tea.KeyEsc, tea.KeyLeft, tea.KeyRight, tea.KeyUp, tea.KeyDown,
		tea.KeyTab, tea.KeyBackspace, tea.KeyCtrlC, tea.KeySpace, tea.KeyHome, tea.KeyEnd}
	f.Fuzz(func(t *testing.T, seed uint64, input []byte) {
		humans := 2 + int(seed%4)
		opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
		st, _, err := g.New(game.Setup{Game: "grizzled", Names: []string{"A", "B", "C", "D", "E"}[:humans], Options: opts}, seed)
		if err != nil {
			t.Fatal(err)
		}
		s := New(asciiTheme())
		s.SetSize(80, 23)
		for i := 0; i < len(input); i++ {
			waiting := g.Waiting(st)
			if len(waiting) == 0 {
				return
			}
			seat := waiting[int(input[i])%len(waiting)]
			v := g.View(st, seat).(grizzled.SeatView)
			s.SetUpdate(table.Update{Room: "FUZZ", Seat: seat, Seq: v.Seq, View: v, Started: true})
			b := input[i]
			var k tea.KeyMsg
			switch {
			case b >= 0x20 && b < 0x7f:
				k = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(b)}}
			case b >= 0x80 && i+2 < len(input): // a burst of several runes at once
				k = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(input[i+1 : i+3]))}
				i += 2
			default:
				k = tea.KeyMsg{Type: controls[int(b)%len(controls)]}
			}
			cmd := s.Update(k)
			checkFits(t, s.View(), 80, 23)
			if cmd == nil {
				continue
			}
			msg := cmd()
			am, ok := msg.(uikit.ActMsg)
			if !ok {
				continue // LeaveMsg and the like
			}
			a := am.Action.(grizzled.Action)
			if !isLegal(v.Legal, a) {
				t.Fatalf("keys produced %+v, not in Legal %+v", a, v.Legal)
			}
			if st, _, err = g.Apply(st, seat, a); err != nil {
				t.Fatalf("engine refused a legal-looking %+v: %v", a, err)
			}
		}
	})
}
