package screentest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// found keeps what the checks report instead of failing.
type found struct{ errs []string }

func (f *found) Helper()                        {}
func (f *found) Errorf(format string, a ...any) { f.errs = append(f.errs, fmt.Sprintf(format, a...)) }
func (f *found) Fatalf(format string, a ...any) { f.Errorf(format, a...) }

// coinScreen draws the coin's flips; bad draws what the suite is for:
// a line too wide, a key left unrendered, a word cut short, and no way
// out with Q.
type coinScreen struct {
	th   *uikit.Theme
	u    table.Update
	w, h int
	bad  bool
}

type noKeys struct{}

func (noKeys) ShortHelp() []key.Binding  { return nil }
func (noKeys) FullHelp() [][]key.Binding { return nil }

func (s *coinScreen) SetUpdate(u table.Update) { s.u = u }
func (s *coinScreen) SetSize(w, h int)         { s.w, s.h = w, h }
func (s *coinScreen) Keys() help.KeyMap        { return noKeys{} }
func (s *coinScreen) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case uikit.UpdateMsg:
		s.SetUpdate(*m.Update)
	case tea.KeyMsg:
		if m.String() == "Q" && !s.bad {
			return func() tea.Msg { return uikit.LeaveMsg{} }
		}
	}
	return nil
}
func (s *coinScreen) View() string {
	v, _ := uikit.ViewOf[gametest.CoinState](&s.u)
	line := s.th.Trunc(fmt.Sprintf("%d · %s", v.Flips, s.th.T("ui.none_yet")), s.w)
	if s.bad {
		return line + "\n" + strings.Repeat("=", s.w+1) + "\n" + s.th.T("ui.no_such_key") + "\n" + string([]rune(s.th.T("ui.none_yet"))[:3]) + "…"
	}
	return line
}

func coinModule(bad bool) uikit.Module {
	return uikit.Module{
		Entry:   game.Entry{Game: gametest.Coin{}},
		Players: uikit.Players{Min: 2, Max: 2, Default: 2},
		Screen:  func(th *uikit.Theme) uikit.Screen { return &coinScreen{th: th, bad: bad} },
		Form: uikit.Form{Fields: []uikit.Field{{Std: uikit.Seats}},
			Build: func(uikit.Choices) (uikit.TableSpec, error) { return uikit.TableSpec{Title: game.Raw("Coin")}, nil }},
	}
}

// The checks find a line too wide, a key left as it is, a word cut and a
// screen Q does not leave, and nothing on a screen that has none of them.
func TestTheChecksFindWhatTheyLookFor(t *testing.T) {
	keyLeft := keyPattern(t)
	for _, bad := range []bool{false, true} {
		var f found
		m := coinModule(bad)
		checkScreen(&f, m, i18n.English, Sizes[0], 0, play(&f, m, 1), keyLeft)
		got := strings.Join(f.errs, "\n")
		if !bad {
			if got != "" {
				t.Errorf("a good screen: %s", got)
			}
			continue
		}
		for _, want := range []string{"columns wide on a screen of 80", `unrendered words ("ui.no_such_key")`, "Q does not leave", "a word cut: non…"} {
			if !strings.Contains(got, want) {
				t.Errorf("a bad screen: no %q in\n%s", want, got)
			}
		}
	}
}
