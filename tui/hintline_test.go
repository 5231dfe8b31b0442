package tui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// hintCoinScreen is the coin's screen with a coach that always says the same.
type hintCoinScreen struct{ coinScreen }

func (s *hintCoinScreen) Hint() tea.Cmd {
	return func() tea.Msg { return uikit.HintMsg("COACH: flip the coin") }
}

// The coach's hint goes once the game moves on, and a hint worked out for
// a moment already gone is never shown: it stayed after the move and later
// stood where "▸ Your turn" belongs (issue 30 item 8).
func TestTheCoachsHintGoesWithItsMoment(t *testing.T) {
	a := testApp(t)
	a.Games[0].Screen = func(*uikit.Theme) uikit.Screen { return &hintCoinScreen{} }
	a.Games[0].Form.Build = func(uikit.Choices) (uikit.TableSpec, error) {
		return uikit.TableSpec{Options: table.Options{Hints: true}, Title: game.M("form.grizzled.table_title_hints", game.Text("Variant", "coin"), game.Count(2))}, nil
	}
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n", "enter")
	alice.pump(`alice \(you\)`)
	bob := newSession(t, a, "fp-bob", "bob")
	bob.keys("enter")
	bob.pump(`bob \(you\)`)
	alice.pump(`bob  ● here`)
	alice.keys("s")
	alice.pump(`flips: 0`)

	alice.keys("h")
	if v := alice.m.View(); !strings.Contains(v, "COACH: flip the coin") {
		t.Fatalf("the hint does not show:\n%s", v)
	}
	alice.keys("f")
	if v := alice.pump(`flips: 1`); strings.Contains(v, "COACH") {
		t.Fatalf("the hint stayed after the move:\n%s", v)
	}

	// bob asks, the game moves on before the coach answers: the answer,
	// for a moment gone, is dropped.
	bob.pump(`flips: 1`)
	bob.m.hint.ask(bob.m, bob.m.at.upd.Seq)
	bob.keys("f")
	bob.pump(`flips: 2`)
	bob.send(uikit.HintMsg("COACH: late"))
	if v := bob.m.View(); strings.Contains(v, "COACH") || strings.Contains(v, bob.m.th.T("ui.hint.thinking")) {
		t.Fatalf("a hint for a moment gone shows:\n%s", v)
	}
}

// fullCoinScreen fills the height it is given, as a game's screen does,
// and ends with the choices a player is making.
type fullCoinScreen struct{ hintCoinScreen }

func (s *fullCoinScreen) View() string {
	lines := strings.Split(s.coinScreen.View(), "\n")
	for len(lines) < s.h-1 {
		lines = append(lines, "")
	}
	return strings.Join(append(lines[:s.h-1], "CHOICES: [1 heads] 2 tails"), "\n")
}

// askAtASoloTable seats alice alone at a table of screen's game with
// hints on, starts it and asks the coach (h).
func askAtASoloTable(t *testing.T, screen func(*uikit.Theme) uikit.Screen) *session {
	t.Helper()
	a := testApp(t)
	a.Games[0].Screen = screen
	a.Games[0].Players = uikit.Players{Min: 1, Max: 1, Default: 1}
	a.Games[0].Form.Build = func(uikit.Choices) (uikit.TableSpec, error) {
		return uikit.TableSpec{Options: table.Options{Hints: true}, Title: game.M("form.grizzled.table_title_hints", game.Text("Variant", "coin"), game.Count(1))}, nil
	}
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n", "enter")
	alice.pump(`alice \(you\)`)
	alice.keys("s")
	alice.pump(`CHOICES`)
	alice.keys("h")
	return alice
}

// A notice (here the coach's hint) takes a line of its own under the
// table: laid over the table's last line, it hid the choices being made
// (a charm's targets, a mission's sizes) while the hint was on screen.
func TestANoticeHidesNoneOfTheTable(t *testing.T) {
	alice := askAtASoloTable(t, func(*uikit.Theme) uikit.Screen { return &fullCoinScreen{} })
	v := alice.m.View()
	if !strings.Contains(v, "COACH: flip the coin") || !strings.Contains(v, "CHOICES: [1 heads] 2 tails") {
		t.Fatalf("the hint and the choices are not both on screen:\n%s", v)
	}
	if lines := strings.Split(v, "\n"); len(lines) != alice.m.height {
		t.Fatalf("%d lines in a window of %d:\n%s", len(lines), alice.m.height, v)
	}
}

// longHintScreen is the full coin screen with a coach whose hint runs past
// the window's width, as the Grizzled coach's does.
type longHintScreen struct{ fullCoinScreen }

const longHint = "COACH: play: T03 Night+Shell — the mission fails either way; it keeps more morale cards (the team's chances are gone, ≈0%: to hold out, standing ≈41 ±3; next best: withdraw, ≈37)"

func (s *longHintScreen) Hint() tea.Cmd {
	return func() tea.Msg { return uikit.HintMsg(longHint) }
}

// framedLongHintScreen draws the session's notice itself, as the games'
// screens do (uikit.Noticed, through uikit.Frame).
type framedLongHintScreen struct {
	longHintScreen
	notice string
}

func (s *framedLongHintScreen) SetNotice(lines string) { s.notice = lines }

func (s *framedLongHintScreen) View() string {
	return strings.Join(uikit.Frame(nil, s.Keys, false, s.w, s.h, 1, 1, s.notice, func(w, h int) []string {
		lines := strings.Split(s.coinScreen.View(), "\n")
		for len(lines) < h-1 {
			lines = append(lines, "")
		}
		return append(lines[:h-1], "CHOICES: [1 heads] 2 tails")
	}), "\n")
}

// A hint longer than the window's width is read whole, on up to four
// lines, whether the session or the game's screen draws it: cut at one, at
// 80 columns it lost the next best move's chances and, the game all but
// lost, why the coach's move is better (issue 43 item 5).
func TestALongHintIsReadWhole(t *testing.T) {
	for name, screen := range map[string]func(*uikit.Theme) uikit.Screen{
		"the session draws it": func(*uikit.Theme) uikit.Screen { return &longHintScreen{} },
		"the screen draws it":  func(*uikit.Theme) uikit.Screen { return &framedLongHintScreen{} },
	} {
		t.Run(name, func(t *testing.T) {
			alice := askAtASoloTable(t, screen)
			v := alice.m.View()
			lines := strings.Split(v, "\n")
			if len(lines) != alice.m.height {
				t.Fatalf("%d lines in a window of %d:\n%s", len(lines), alice.m.height, v)
			}
			var said []string
			for _, l := range lines {
				if uikit.Width(l) > alice.m.width {
					t.Fatalf("a line of %d cells in a window of %d: %q", uikit.Width(l), alice.m.width, l)
				}
				said = append(said, strings.TrimSpace(l))
			}
			if !strings.Contains(strings.Join(said, " "), longHint) {
				t.Fatalf("the hint is not read whole:\n%s", v)
			}
			if !strings.Contains(v, "CHOICES: [1 heads] 2 tails") {
				t.Fatalf("the hint hides the choices being made:\n%s", v)
			}
		})
	}
}
