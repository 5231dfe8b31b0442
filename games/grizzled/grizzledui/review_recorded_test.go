package grizzledui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/x/ansi"
)

// A recorded game with the blunders (a withdrawal on the first turn with
// four cards; later a play that fails the mission) reviewed for real and
// read in every language in plain mode: it says how the game ended, a line
// per mission with its outcome, turning points with their causes, and
// fits the width. go test -run RecordedGame -v prints the Polish.
func TestReviewOfARecordedGameInEveryLanguage(t *testing.T) {
	const seed = 4
	s, _, _ := grizzled.NewGame([]string{"ann", "bob"}, grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat}, seed)
	bot := grizzbot.NewStrong(grizzbot.DefaultStrong)
	var moves []grizzbot.Move
	withdrew, failed := false, false
	for n := 0; n < 2000; n++ {
		if _, over := s.Over(); over {
			break
		}
		seat := s.Waiting()[0]
		v := s.View(seat)
		act := v.Legal[0]
		if len(v.Legal) > 1 {
			a, _ := bot.Act(v, uint64(n))
			act = a.(grizzled.Action)
			if seat == 0 && v.Phase == grizzled.PhaseTurn && !withdrew && len(v.Hand) >= 4 {
				withdrew = true
				if i := slices.IndexFunc(v.Legal, func(a grizzled.Action) bool { return a.Kind == grizzled.ActWithdraw }); i >= 0 {
					act = v.Legal[i]
				}
			} else if seat == 0 && v.Phase == grizzled.PhaseTurn && withdrew && !failed && v.Round > 1 {
				for _, a := range v.Legal {
					c := s.Clone()
					if a.Kind == grizzled.ActPlay && c.Step(0, a) == nil && c.Failed() && !s.Failed() {
						act, failed = a, true
						break
					}
				}
			}
		}
		moves = append(moves, grizzbot.Move{Seat: seat, Action: act})
		s.Step(seat, act)
	}
	s2, _, _ := grizzled.NewGame([]string{"ann", "bob"}, grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat}, seed)
	r, err := grizzbot.ReviewGame(s2, moves, func(s game.Seat) bool { return s == 0 }, grizzbot.ReviewConfig{Samples: 64}, nil)
	if err != nil {
		t.Fatal(err)
	}
	seats := []table.SeatInfo{{Seat: 0, Name: "ann"}, {Seat: 1, Name: "bob", Bot: "strong"}}
	for _, lang := range i18n.Langs {
		th := uikit.New(nil)
		th.SetLang(lang)
		lines := ReviewLines(th, r, seats, 80, true)
		text := strings.Join(strings.Fields(strings.Join(lines, "\n")), " ")
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%s: a line of %d: %q", lang, w, l)
			}
		}
		if !strings.HasPrefix(text, th.T("grizzledui.review.lost", game.Num("Mission", r.Missions))) {
			t.Errorf("%s: the review does not start with how the game ended:\n%s", lang, text)
		}
		sc := newReviewWords(th, seats)
		for _, l := range sc.missionSentences(r) {
			if !strings.Contains(text, l) {
				t.Errorf("%s: no mission line %q", lang, l)
			}
		}
		if n := strings.Count(text, th.T("grizzledui.review.mission_failed", game.Num("Mission", 0), game.Num("From", 0), game.Num("To", 0), game.Num("Decisions", 0))[:4]); n < len(r.Lines) {
			t.Errorf("%s: %d mission lines of %d", lang, n, len(r.Lines))
		}
		if lang == i18n.Polish && testing.Verbose() {
			fmt.Println(strings.Join(lines, "\n"))
		}
	}
}
