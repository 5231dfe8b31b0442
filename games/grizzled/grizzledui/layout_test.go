package grizzledui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
)

// At 80×24, with the longest names players may take (20 characters, in
// Cyrillic and Polish), every screen of whole games fits the window and
// keeps what the team plays by: the trials, morale and speech numbers,
// whose turn it is, and enough of each name to tell the players apart
// (issue 18 item 10).
func TestLongNamesAt80x24(t *testing.T) {
	names := []string{"Зиновий-Богданович12", "Małgorzata-Żółkiewsk", "Александра-Петровна1", "Grzegorz-Brzęczyszcz", "Ярослав-Святославови"}
	g := grizzled.Game{}
	for seed := uint64(1); seed <= 4; seed++ {
		humans := 2 + int(seed%4)
		t.Run(fmt.Sprintf("%d players", humans), func(t *testing.T) {
			opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
			st, log, err := g.New(game.Setup{Game: "grizzled", Names: names[:humans], Options: opts}, seed)
			if err != nil {
				t.Fatal(err)
			}
			for step := 0; step < 400; step++ {
				if _, over := g.Result(st); over {
					break
				}
				waiting := g.Waiting(st)
				seat := waiting[step%len(waiting)]
				v := g.View(st, seat).(grizzled.SeatView)
				if len(log) > 30 {
					log = log[len(log)-30:]
				}
				s := New(asciiTheme())
				s.SetSize(80, 23) // the session's help bar is the 24th line
				s.SetUpdate(table.Update{Room: "TEST", Title: game.Raw("The Grizzled · campaign Верденская-мясорубка · 28 trials"),
					Seat: seat, Seq: v.Seq, View: v, Log: game.Refs(log), Started: true})
				out := s.View()
				checkFits(t, out, 80, 23)
				head := strings.SplitN(out, "\n", 2)[0]
				for _, want := range []string{
					fmt.Sprintf("Trials %d", v.Trials), fmt.Sprintf("Morale %d", v.Morale), fmt.Sprintf("Speech %d", v.SpeechSupply),
				} {
					if !strings.Contains(head, want) {
						t.Fatalf("step %d: the header lacks %q: %q", step, want, head)
					}
				}
				if v.Phase == grizzled.PhaseTurn && !strings.Contains(out, "▶") {
					t.Fatalf("step %d: nobody is marked as playing:\n%s", step, out)
				}
				for _, n := range names[:humans] {
					if !strings.Contains(out, string([]rune(n)[:15])) {
						t.Fatalf("step %d: %q is cut shorter than 15 letters:\n%s", step, n, out)
					}
				}
				legal := g.Legal(st, seat)
				if len(legal) == 0 {
					t.Fatalf("step %d: seat %d is waited on with nothing to do", step, seat)
				}
				var evs []game.Event
				if st, evs, err = g.Apply(st, seat, legal[step%len(legal)]); err != nil {
					t.Fatal(err)
				}
				log = append(log, evs...)
			}
		})
	}
}

// The log scrolls back with [ (or PgUp) and forward with ]: results that
// bots' turns pushed off the screen can be read again (issue 18 item 14).
func TestLogScrollsBack(t *testing.T) {
	g := grizzled.Game{}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: []string{"Ann", "Bob", "Cid", "Dee"}, Options: opts}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 40; step++ {
		w := g.Waiting(st)
		if len(w) == 0 {
			break
		}
		legal := g.Legal(st, w[0])
		var evs []game.Event
		if st, evs, err = g.Apply(st, w[0], legal[step%len(legal)]); err != nil {
			t.Fatal(err)
		}
		log = append(log, evs...)
	}
	v := g.View(st, 0).(grizzled.SeatView)
	s := New(asciiTheme())
	s.SetSize(80, 23)
	s.SetUpdate(table.Update{Room: "TEST", Seat: 0, Seq: v.Seq, View: v, Log: game.Refs(log), Started: true})
	newest := s.View()
	last := log[len(log)-1].Text
	if !strings.Contains(newest, string([]rune(last)[:min(20, len([]rune(last)))])) {
		t.Fatalf("the newest event is not on screen:\n%s", newest)
	}
	for range 3 {
		s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("[")})
	}
	back := s.View()
	if back == newest || !strings.Contains(back, "lines back") {
		t.Fatalf("[ did not scroll the log back:\n%s", back)
	}
	for range 3 {
		s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]")})
	}
	if s.View() != newest {
		t.Fatalf("] did not come back to the newest:\n%s", s.View())
	}
}

// The turn clock shows on the status line, for the player waited on and
// for everyone else (issue 18 item 6).
func TestTurnClockOnTheStatusLine(t *testing.T) {
	g := grizzled.Game{}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: 0})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: []string{"Ann", "Bob", "Cid"}, Options: opts}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for len(g.Waiting(st)) > 0 { // to the first turn
		w := g.Waiting(st)[0]
		if v := g.View(st, w).(grizzled.SeatView); v.Phase == grizzled.PhaseTurn {
			break
		}
		if st, _, err = g.Apply(st, w, g.Legal(st, w)[0]); err != nil {
			t.Fatal(err)
		}
	}
	for seat := game.Seat(0); seat < 3; seat++ {
		v := g.View(st, seat).(grizzled.SeatView)
		s := New(asciiTheme())
		s.now = func() time.Time { return time.Unix(0, 0) }
		s.SetSize(80, 23)
		s.SetUpdate(table.Update{Room: "T", Seat: seat, Seq: v.Seq, View: v, Log: game.Refs(log), Started: true, Deadline: 90})
		if out := s.View(); !strings.Contains(out, "(90 s left)") {
			t.Fatalf("seat %d does not see the turn clock:\n%s", seat, out)
		}
	}
}
