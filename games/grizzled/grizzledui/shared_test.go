package grizzledui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// The parts of a frame shared between seats (title, No Man's Land and its
// threats' rows, the soldiers' rows), and the hand a screen keeps from its last frame, must
// draw exactly what the seat would draw alone: every
// seat of whole games, at two sizes and in two languages, with seats
// turning bot and going away, is drawn once with one memo shared by all
// and once from scratch, and the frames must be the same. A key that
// missed an input would show one seat's row, or an old No Man's Land, to
// another.
func TestSharedPartsDrawWhatEachSeatWould(t *testing.T) {
	saved, savedRows := sharedLines, threatRows
	defer func() { sharedLines, threatRows = saved, savedRows }()
	shared := uikit.NewSharedLines(64) // small: slots are also taken over by other parts
	sharedRows := uikit.NewSharedLines(8)
	for _, lang := range []i18n.Lang{i18n.English, i18n.Russian} {
		for _, size := range [][2]int{{80, 23}, {120, 40}} {
			for seed := uint64(1); seed <= 3; seed++ {
				t.Run(fmt.Sprintf("%s/%dx%d/seed%d", lang, size[0], size[1], seed), func(t *testing.T) {
					th := benchTheme()
					th.SetLang(lang)
					alone, together := make([]*Screen, 5), make([]*Screen, 5)
					for i := range alone {
						alone[i], together[i] = New(th), New(th)
						alone[i].SetSize(size[0], size[1])
						together[i].SetSize(size[0], size[1])
					}
					for step, us := range playTable(t, seed, 5) {
						for seat, u := range us {
							u.Seats = slices.Clone(u.Seats)
							u.Seats[(step/7)%5].Connected = step%3 == 0 // someone comes and goes
							if step%11 < 4 {
								u.Seats[(step/11)%5].Bot = "easy"
							}
							sharedLines, threatRows = shared, sharedRows
							together[seat].SetUpdate(u)
							if step%3 == 1 { // the cursor moves: in the hand, or in a chooser
								together[seat].Update(tea.KeyMsg{Type: tea.KeyRight})
							}
							got := together[seat].View()
							sharedLines, threatRows = uikit.NewSharedLines(64), uikit.NewSharedLines(8) // nothing remembered
							alone[seat].parts, alone[seat].hand = shownParts{}, handMemos{}
							alone[seat].SetUpdate(u)
							if step%3 == 1 {
								alone[seat].Update(tea.KeyMsg{Type: tea.KeyRight})
							}
							if want := alone[seat].View(); got != want {
								t.Fatalf("step %d seat %d: with the shared parts\n%s\nalone\n%s", step, seat, got, want)
							}
						}
					}
				})
			}
		}
	}
}
