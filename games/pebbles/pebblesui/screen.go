package pebblesui

import (
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/pebbles"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The smallest window the table is drawn in, the session's help bar
// included: the session's own minimum.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Screen is a Pebbles table for one session (uikit.Screen, and
// uikit.Plain for plain mode, from the same view and words).
type Screen struct {
	th      *uikit.Theme
	u       table.Update
	v       pebbles.State
	hasView bool
	w, h    int
	acts    uikit.Actions
	keys    keyMap
}

// keyMap is the screen's keys: one a move, and leaving.
type keyMap struct {
	Take  [pebbles.MaxTake]key.Binding
	Leave key.Binding
}

func (k *keyMap) ShortHelp() []key.Binding  { return append(k.Take[:], k.Leave) }
func (k *keyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

var (
	_ uikit.Screen = (*Screen)(nil)
	_ uikit.Plain  = (*Screen)(nil)
	_ uikit.Direct = (*Screen)(nil)
	_ uikit.Guide  = (*Screen)(nil)
)

// New is an empty table screen drawing with th (the session's theme).
func New(th *uikit.Theme) *Screen {
	s := &Screen{th: th, w: MinWidth, h: MinHeight - 1}
	s.keys.Take[0] = key.NewBinding(key.WithKeys("1"), key.WithHelp("1", th.T("pebblesui.key.take_one")))
	s.keys.Take[1] = key.NewBinding(key.WithKeys("2"), key.WithHelp("2", th.T("pebblesui.key.take_two")))
	s.keys.Leave = key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", th.T("pebblesui.key.leave")))
	s.enable()
	return s
}

// SendActionsTo sends the screen's moves straight to submit (uikit.Direct).
func (s *Screen) SendActionsTo(submit func(uikit.ActMsg)) { s.acts.To(submit) }

func (s *Screen) SetSize(w, h int) { s.w, s.h = w, h }

// SetUpdate takes the room's newest Update.
func (s *Screen) SetUpdate(u table.Update) {
	s.u = u
	s.v, s.hasView = uikit.ViewOf[pebbles.State](&u)
	s.enable()
}

// enable offers the takes the rules allow the viewer now.
func (s *Screen) enable() {
	mine := s.myTurn()
	for i := range s.keys.Take {
		s.keys.Take[i].SetEnabled(mine && i < s.v.Heap)
	}
}

// myTurn: the viewer sits at an open, running table and it is their turn.
func (s *Screen) myTurn() bool {
	return s.hasView && s.u.Closed == table.Open && s.u.Seat >= 0 && s.u.Seat == s.v.Turn && s.v.Winner == game.NoSeat
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case uikit.UpdateMsg:
		s.SetUpdate(*m.Update)
	case tea.KeyMsg:
		if key.Matches(m, s.keys.Leave) {
			return func() tea.Msg { return uikit.LeaveMsg{} }
		}
		for i, b := range s.keys.Take {
			if b.Enabled() && key.Matches(m, b) {
				return s.acts.Send(uikit.ActMsg{Seq: s.u.Seq, Action: pebbles.Take(i + 1)})
			}
		}
	}
	return nil
}

func (s *Screen) Keys() help.KeyMap { return &s.keys }

// Guide is the rules in a line, for the help page (uikit.Guide).
func (s *Screen) Guide() string { return s.th.T("pebblesui.rules") }

func (s *Screen) View() string {
	return strings.Join(uikit.Frame(s.th, s.Keys, false, s.w, s.h, MinWidth, MinHeight, "", s.body), "\n")
}

// body is the table: its title, the heap, the seats, what is asked, the
// refusal if any, and as much of the log as fits.
func (s *Screen) body(w, h int) []string {
	th := s.th
	if lines, ok := uikit.RoomLines(th, "pebbles.title", s.u.Closed, s.hasView, w); ok {
		return lines
	}
	top := []string{uikit.TitleLine(th, &s.u, "pebbles.title", "", w), ""}
	top = append(top, th.Accent.Render(th.Trunc(s.heapDrawing(), w)), th.Muted.Render(th.Trunc(s.heapWords(), w)), "")
	for i, name := range s.v.Names {
		mark := "  "
		if game.Seat(i) == s.v.Turn && s.v.Winner == game.NoSeat {
			mark = "> "
		}
		line := mark + th.Name(uikit.Clean(name))
		if game.Seat(i) == s.u.Seat {
			line += " " + th.T("ui.tag.you")
		}
		top = append(top, th.Trunc(line, w))
	}
	top = append(top, "")
	for _, l := range uikit.Wrap(s.Asked(), w) {
		top = append(top, th.Strong.Render(l))
	}
	top = append(top, uikit.RefusedLines(th, &s.u, w, 2)...)
	if s.v.Winner != game.NoSeat {
		top = append(top, th.Muted.Render(th.Trunc(th.T("ui.q_leaves"), w)))
	}
	room := h - len(top) - 1
	if room < 1 {
		return top[:min(len(top), h)]
	}
	var log []string
	for _, e := range s.u.Log {
		log = append(log, uikit.Wrap(th.Event(e), w)...)
	}
	log = log[max(0, len(log)-room):]
	out := append(top, th.Rule.Render(strings.Repeat("─", w)))
	for _, l := range log {
		out = append(out, th.Muted.Render(l))
	}
	return out
}

// heapDrawing is the heap, a mark a pebble.
func (s *Screen) heapDrawing() string {
	mark := "●"
	if s.th.ASCII() || s.th.NoColor {
		mark = "o"
	}
	return strings.TrimSpace(strings.Repeat(mark+" ", s.v.Heap))
}

func (s *Screen) heapWords() string { return s.th.T("pebblesui.in_heap", game.Count(s.v.Heap)) }

// Look is the situation in sentences (uikit.Plain).
func (s *Screen) Look() []string {
	out := s.Table()
	if a := s.Asked(); a != "" {
		out = append(out, a)
	}
	return out
}

// Hand: a Pebbles player holds nothing.
func (s *Screen) Hand() []string { return nil }

// Table is the heap and whose turn it is, or who won.
func (s *Screen) Table() []string {
	if !s.hasView {
		return nil
	}
	return []string{s.heapWords()}
}

// Asked is what the game asks of the viewer, or whom it waits for, or
// how it ended.
func (s *Screen) Asked() string {
	th := s.th
	switch {
	case !s.hasView:
		return ""
	case s.v.Winner != game.NoSeat:
		return th.T("pebbles.won", game.Text("Player", s.v.Names[s.v.Winner]))
	case s.myTurn() && s.v.Heap == 1:
		return th.T("pebblesui.your_turn_last")
	case s.myTurn():
		return th.T("pebblesui.your_turn")
	case s.u.Seat < 0:
		return th.T("pebblesui.watching") + " " + th.T("pebblesui.turn_of", game.Text("Player", s.v.Names[s.v.Turn]))
	}
	return th.T("pebblesui.turn_of", game.Text("Player", s.v.Names[s.v.Turn]))
}

// Moves are the takes allowed now: "1" or "take 1" picks one, the word
// also as an ASCII terminal shows it ("wez 1" for "weź 1").
func (s *Screen) Moves() []uikit.Move {
	var out []uikit.Move
	take := s.th.T("pebblesui.cmd_take")
	plain := uikit.ToASCII(uikit.Romanize(take))
	for i, b := range s.keys.Take {
		if b.Enabled() {
			n := strconv.Itoa(i + 1)
			cmds := []string{n, take + " " + n}
			if plain != take {
				cmds = append(cmds, plain+" "+n)
			}
			out = append(out, uikit.Move{Label: b.Help().Desc, Commands: cmds, Action: pebbles.Take(i + 1)})
		}
	}
	return out
}
