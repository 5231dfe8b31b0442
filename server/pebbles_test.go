package server

// Pebbles is a game only this file knows: players take one or two pebbles
// from a heap in turn, and whoever takes the last one wins. It has its own
// rules, bot and screen (full and plain) and reaches the lobby, the tables,
// the store and both front ends through Config.Games alone: the proof that
// a game's entry is the only seam (issue 31 item 1).

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// pebbles is the rules: game.Game and game.ViewCodec.
type pebbles struct{}

// pebblesOptions are a table's options: the heap's size (0: 7).
type pebblesOptions struct {
	Heap int `json:"heap,omitempty"`
}

// pebblesState is the whole game, all of it public: it is each seat's view too.
type pebblesState struct {
	Heap   int       `json:"heap"`
	Seats  int       `json:"seats"`
	Turn   game.Seat `json:"turn"`
	Winner game.Seat `json:"winner"` // game.NoSeat until someone takes the last pebble
	Seq    int       `json:"seq"`
}

// pebblesTake is an action: how many pebbles to take.
type pebblesTake int

const pebblesMax = 2 // the most one may take at once

func (pebbles) ID() string    { return "pebbles" }
func (pebbles) Title() string { return "Pebbles" }

func (pebbles) New(setup game.Setup, _ uint64) (game.State, []game.Event, error) {
	var o pebblesOptions
	if len(setup.Options) > 0 {
		if err := json.Unmarshal(setup.Options, &o); err != nil {
			return nil, nil, game.ErrBadAction
		}
	}
	if o.Heap == 0 {
		o.Heap = 7
	}
	if len(setup.Names) < 2 || o.Heap < 1 || o.Heap > 100 {
		return nil, nil, game.ErrBadAction
	}
	s := &pebblesState{Heap: o.Heap, Seats: len(setup.Names), Winner: game.NoSeat}
	return s, []game.Event{pebblesSays(game.M("pebbles.heap", game.Num("N", s.Heap)))}, nil
}

func pebblesSays(m game.Msg) game.Event {
	return game.Event{Audience: game.Everyone(), Kind: game.Narration, From: game.NoSeat, Msg: m}
}

func (g pebbles) Apply(st game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	s := st.(*pebblesState)
	switch {
	case s.Winner != game.NoSeat:
		return s, nil, game.ErrGameOver
	case seat != s.Turn:
		return s, nil, game.ErrNotYourTurn
	}
	n, ok := a.(pebblesTake)
	if !ok || n < 1 || int(n) > min(pebblesMax, s.Heap) {
		return s, nil, game.ErrBadAction
	}
	s.Heap -= int(n)
	s.Seq++
	evs := []game.Event{pebblesSays(game.M("pebbles.took", game.Num("Seat", int(seat)+1), game.Num("N", int(n)), game.Num("Left", s.Heap)))}
	if s.Heap == 0 {
		s.Winner = seat
		return s, append(evs, pebblesSays(game.M("pebbles.won", game.Num("Seat", int(seat)+1)))), nil
	}
	s.Turn = (s.Turn + 1) % game.Seat(s.Seats)
	return s, evs, nil
}

func (pebbles) Clone(st game.State) game.State {
	c := *st.(*pebblesState)
	return &c
}

func (pebbles) Legal(st game.State, seat game.Seat) []game.Action {
	s := st.(*pebblesState)
	if s.Winner != game.NoSeat || seat != s.Turn {
		return nil
	}
	var out []game.Action
	for n := 1; n <= min(pebblesMax, s.Heap); n++ {
		out = append(out, pebblesTake(n))
	}
	return out
}

func (pebbles) Waiting(st game.State) []game.Seat {
	if s := st.(*pebblesState); s.Winner == game.NoSeat {
		return []game.Seat{s.Turn}
	}
	return nil
}

func (pebbles) View(st game.State, _ game.Seat) game.View { return *st.(*pebblesState) }

func (pebbles) Timer(game.State) (game.Timer, bool) { return game.Timer{}, false }

func (pebbles) Say(_ game.State, seat game.Seat, text string) ([]game.Event, error) {
	if seat < 0 || text == "" || len(text) > game.MaxChat {
		return nil, game.ErrBadAction
	}
	return []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: text}}, nil
}

func (pebbles) Result(st game.State) (game.Result, bool) {
	s := st.(*pebblesState)
	if s.Winner == game.NoSeat {
		return game.Result{}, false
	}
	return game.Result{Outcome: "win", Winners: []game.Seat{s.Winner},
		Summary: game.M("pebbles.won", game.Num("Seat", int(s.Winner)+1))}, true
}

func (pebbles) EncodeAction(a game.Action) ([]byte, error) {
	n, ok := a.(pebblesTake)
	if !ok || n < 1 || n > pebblesMax {
		return nil, game.ErrBadAction
	}
	return []byte{byte(n)}, nil
}

func (pebbles) DecodeAction(b []byte) (game.Action, error) {
	if len(b) != 1 || b[0] < 1 || b[0] > pebblesMax {
		return nil, game.ErrBadAction
	}
	return pebblesTake(b[0]), nil
}

func (pebbles) EncodeView(v game.View) ([]byte, error) {
	return game.EncodeJSONView[pebblesState]("pebbles", v)
}

func (pebbles) DecodeView(b []byte) (game.View, error) {
	return game.DecodeJSONView[pebblesState]("pebbles", b)
}

// pebblesBots plays perfectly: it leaves the heap a multiple of three
// when it can.
type pebblesBots struct{}

func (pebblesBots) Levels() []string { return []string{"easy"} }
func (pebblesBots) New(level string) (game.Bot, error) {
	if level != "easy" {
		return nil, fmt.Errorf("pebbles: no bot %q", level)
	}
	return pebblesBot{}, nil
}

type pebblesBot struct{}

func (pebblesBot) Act(v game.View, _ uint64) (game.Action, bool) {
	s, ok := v.(pebblesState)
	if !ok || s.Winner != game.NoSeat {
		return nil, false
	}
	if n := s.Heap % 3; n > 0 {
		return pebblesTake(n), true
	}
	return pebblesTake(1), true
}

// pebblesScreen draws the heap and takes 1 or 2 (uikit.Screen), and says
// the same in sentences (uikit.Plain).
type pebblesScreen struct {
	u    table.Update
	v    pebblesState
	acts uikit.Actions
	keys pebblesKeys
}

type pebblesKeys struct{ take [pebblesMax]key.Binding }

func (k pebblesKeys) ShortHelp() []key.Binding  { return k.take[:] }
func (k pebblesKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.take[:]} }

func newPebblesScreen(*uikit.Theme) uikit.Screen {
	s := &pebblesScreen{}
	for i := range s.keys.take {
		n := fmt.Sprint(i + 1)
		s.keys.take[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, "take "+n))
	}
	return s
}

func (s *pebblesScreen) SetUpdate(u table.Update) {
	s.u = u
	if v, ok := u.View.(pebblesState); ok {
		s.v = v
	}
	mine := u.Started && u.Seat == s.v.Turn && s.v.Winner == game.NoSeat
	for i := range s.keys.take {
		s.keys.take[i].SetEnabled(mine && i < s.v.Heap)
	}
}

func (s *pebblesScreen) SetSize(int, int) {}

func (s *pebblesScreen) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case uikit.UpdateMsg:
		s.SetUpdate(*m.Update)
	case tea.KeyMsg:
		for i, b := range s.keys.take {
			if b.Enabled() && key.Matches(m, b) {
				return s.acts.Send(uikit.ActMsg{Seq: s.u.Seq, Action: pebblesTake(i + 1)})
			}
		}
	}
	return nil
}

func (s *pebblesScreen) SendActionsTo(submit func(uikit.ActMsg)) { s.acts.To(submit) }

func (s *pebblesScreen) View() string { return strings.Join(s.Look(), "\n") }

func (s *pebblesScreen) Keys() help.KeyMap { return s.keys }

func (s *pebblesScreen) Look() []string {
	return append(s.Table(), s.Asked())
}

func (s *pebblesScreen) Hand() []string { return nil }

func (s *pebblesScreen) Table() []string {
	if s.v.Winner != game.NoSeat {
		return []string{fmt.Sprintf("Pebbles: seat %d took the last one", s.v.Winner+1)}
	}
	return []string{fmt.Sprintf("Pebbles: %d left, seat %d to take", s.v.Heap, s.v.Turn+1)}
}

func (s *pebblesScreen) Asked() string {
	if len(s.Moves()) == 0 {
		return ""
	}
	return fmt.Sprintf("Your turn: %d pebbles left", s.v.Heap)
}

func (s *pebblesScreen) Moves() []uikit.Move {
	var out []uikit.Move
	for i, b := range s.keys.take {
		if b.Enabled() {
			out = append(out, uikit.Move{Label: b.Help().Desc, Commands: []string{b.Help().Desc}, Action: pebblesTake(i + 1)})
		}
	}
	return out
}

// pebblesEntry is the game as a server offers it: rules, bot, screen and
// a form of two fields.
func pebblesEntry() uikit.Module {
	return uikit.Module{
		Entry:   game.Entry{Game: pebbles{}, Bots: pebblesBots{}},
		Screen:  newPebblesScreen,
		Players: uikit.Players{Min: 2, Max: 4, Default: 2},
		Form: uikit.Form{
			Fields: []uikit.Field{{Std: uikit.Seats}, {Std: uikit.BotLevel}, {Std: uikit.BotSeats}},
			Build: func(uikit.Choices) (uikit.TableSpec, error) {
				return uikit.TableSpec{Title: game.Raw("Pebbles")}, nil
			},
		},
	}
}

func TestPebblesPassesTheConformanceSuite(t *testing.T) {
	t.Parallel()
	var setups []game.Setup
	for _, heap := range []int{1, 7, 20} {
		opts, _ := json.Marshal(pebblesOptions{Heap: heap})
		setups = append(setups, game.Setup{Game: "pebbles", Names: []string{"a", "b", "c"}[:2+heap%2], Options: opts})
	}
	gametest.Run(t, gametest.Config{Game: pebbles{}, Setups: setups,
		Snapshot: func(s game.State) ([]byte, error) { return json.Marshal(s) }})
}

// Two people and a bot play Pebbles over SSH, one in plain mode and one
// on the full screen, on a server that offers it beside its own games:
// the lobby lists it, the table plays it, the store keeps its result.
func TestAGameOnlyItsEntryKnowsPlaysOverSSH(t *testing.T) {
	t.Parallel()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Guests: true,
		Games: append(Catalog(), pebblesEntry())})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	srv.app.Room.BotDelay = 0

	ann := dialPlain(t, addr, "ann")
	made := strings.Join(ann.do("new pebbles 3 1"), "\n")
	code := regexp.MustCompile(`Table ([A-Z0-9]{4})`).FindStringSubmatch(made)
	if code == nil {
		t.Fatalf("new pebbles: %q", made)
	}
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithCommand("join "+code[1]))
	bob.ExpectScreen(t, `bob \(you\)`, 10*time.Second)
	ann.do("start")

	// Seven pebbles, ann, bob, then the bot: ann and bob take one each
	// time, the bot leaves a multiple of three, and takes the last.
	for _, left := range []int{7, 3} {
		ann.c.Expect(t, fmt.Sprintf(`Your turn: %d pebbles left`, left), 10*time.Second)
		if out := strings.Join(ann.do("take 1"), "\n"); strings.Contains(out, "not one of your moves") {
			t.Fatalf("ann's take 1 at %d: %s", left, out)
		}
		bob.ExpectScreen(t, fmt.Sprintf(`Pebbles: %d left, seat 2 to take`, left-1), 10*time.Second)
		bob.Type("1")
	}
	ann.c.Expect(t, `pebbles\.won`, 10*time.Second)
	bob.ExpectScreen(t, `seat 3 took the last one`, 10*time.Second)

	var rm persistence.RoomRecord
	clocktest.CheckFor(t, 10*time.Second, 10*time.Millisecond, func() (err error) {
		if rm, err = srv.store.Room(code[1]); err == nil && rm.Status != persistence.StatusFinished {
			err = fmt.Errorf("the game is stored as %s, not finished", rm.Status)
		}
		return err
	})
	if rm.Setup.Game != "pebbles" || rm.Result == nil || len(rm.Result.Winners) != 1 || rm.Result.Winners[0] != 2 {
		t.Fatalf("stored: game %q result %+v; want pebbles won by the bot in seat 3", rm.Setup.Game, rm.Result)
	}
	if help := strings.Join(ann.do("help"), "\n"); strings.Contains(help, "the coach's review") {
		t.Errorf("a game without a coach offers a review:\n%s", help)
	}
}
