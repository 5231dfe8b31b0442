package server

// Stones is a game only this file knows: players take one or two stones
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

// stones is the rules: game.Game and game.ViewCodec.
type stones struct{}

// stonesOptions are a table's options: the heap's size (0: 7).
type stonesOptions struct {
	Heap int `json:"heap,omitempty"`
}

// stonesState is the whole game, all of it public: it is each seat's view too.
type stonesState struct {
	Heap   int       `json:"heap"`
	Seats  int       `json:"seats"`
	Turn   game.Seat `json:"turn"`
	Winner game.Seat `json:"winner"` // game.NoSeat until someone takes the last pebble
	Seq    int       `json:"seq"`
}

// stonesTake is an action: how many stones to take.
type stonesTake int

const stonesMax = 2 // the most one may take at once

func (stones) ID() string    { return "stones" }
func (stones) Title() string { return "Stones" }

func (stones) New(setup game.Setup, _ uint64) (game.State, []game.Event, error) {
	var o stonesOptions
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
	s := &stonesState{Heap: o.Heap, Seats: len(setup.Names), Winner: game.NoSeat}
	return s, []game.Event{stonesSays(game.M("stones.heap", game.Num("N", s.Heap)))}, nil
}

func stonesSays(m game.Msg) game.Event {
	return game.Event{Audience: game.Everyone(), Kind: game.Narration, From: game.NoSeat, Msg: m}
}

func (g stones) Apply(st game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	s := st.(*stonesState)
	switch {
	case s.Winner != game.NoSeat:
		return s, nil, game.ErrGameOver
	case seat != s.Turn:
		return s, nil, game.ErrNotYourTurn
	}
	n, ok := a.(stonesTake)
	if !ok || n < 1 || int(n) > min(stonesMax, s.Heap) {
		return s, nil, game.ErrBadAction
	}
	s.Heap -= int(n)
	s.Seq++
	evs := []game.Event{stonesSays(game.M("stones.took", game.Num("Seat", int(seat)+1), game.Num("N", int(n)), game.Num("Left", s.Heap)))}
	if s.Heap == 0 {
		s.Winner = seat
		return s, append(evs, stonesSays(game.M("stones.won", game.Num("Seat", int(seat)+1)))), nil
	}
	s.Turn = (s.Turn + 1) % game.Seat(s.Seats)
	return s, evs, nil
}

func (stones) Clone(st game.State) game.State {
	c := *st.(*stonesState)
	return &c
}

func (stones) Legal(st game.State, seat game.Seat) []game.Action {
	s := st.(*stonesState)
	if s.Winner != game.NoSeat || seat != s.Turn {
		return nil
	}
	var out []game.Action
	for n := 1; n <= min(stonesMax, s.Heap); n++ {
		out = append(out, stonesTake(n))
	}
	return out
}

func (stones) Waiting(st game.State) []game.Seat {
	if s := st.(*stonesState); s.Winner == game.NoSeat {
		return []game.Seat{s.Turn}
	}
	return nil
}

func (stones) View(st game.State, _ game.Seat) game.View { return *st.(*stonesState) }

func (stones) Timer(game.State) (game.Timer, bool) { return game.Timer{}, false }

func (stones) Say(_ game.State, seat game.Seat, text string) ([]game.Event, error) {
	if seat < 0 || text == "" || len(text) > game.MaxChat {
		return nil, game.ErrBadAction
	}
	return []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: text}}, nil
}

func (stones) Result(st game.State) (game.Result, bool) {
	s := st.(*stonesState)
	if s.Winner == game.NoSeat {
		return game.Result{}, false
	}
	return game.Result{Outcome: "win", Winners: []game.Seat{s.Winner},
		Summary: game.M("stones.won", game.Num("Seat", int(s.Winner)+1))}, true
}

func (stones) EncodeAction(a game.Action) ([]byte, error) {
	n, ok := a.(stonesTake)
	if !ok || n < 1 || n > stonesMax {
		return nil, game.ErrBadAction
	}
	return []byte{byte(n)}, nil
}

func (stones) DecodeAction(b []byte) (game.Action, error) {
	if len(b) != 1 || b[0] < 1 || b[0] > stonesMax {
		return nil, game.ErrBadAction
	}
	return stonesTake(b[0]), nil
}

func (stones) EncodeView(v game.View) ([]byte, error) {
	return game.EncodeJSONView[stonesState]("stones", v)
}

func (stones) DecodeView(b []byte) (game.View, error) {
	return game.DecodeJSONView[stonesState]("stones", b)
}

// stonesBots plays perfectly: it leaves the heap a multiple of three
// when it can.
type stonesBots struct{}

func (stonesBots) Levels() []string { return []string{"easy"} }
func (stonesBots) New(level string) (game.Bot, error) {
	if level != "easy" {
		return nil, fmt.Errorf("stones: no bot %q", level)
	}
	return stonesBot{}, nil
}

type stonesBot struct{}

func (stonesBot) Act(v game.View, _ uint64) (game.Action, bool) {
	s, ok := v.(stonesState)
	if !ok || s.Winner != game.NoSeat {
		return nil, false
	}
	if n := s.Heap % 3; n > 0 {
		return stonesTake(n), true
	}
	return stonesTake(1), true
}

// stonesScreen draws the heap and takes 1 or 2 (uikit.Screen), and says
// the same in sentences (uikit.Plain).
type stonesScreen struct {
	u    table.Update
	v    stonesState
	acts uikit.Actions
	keys stonesKeys
}

type stonesKeys struct{ take [stonesMax]key.Binding }

func (k stonesKeys) ShortHelp() []key.Binding  { return k.take[:] }
func (k stonesKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.take[:]} }

func newStonesScreen(*uikit.Theme) uikit.Screen {
	s := &stonesScreen{}
	for i := range s.keys.take {
		n := fmt.Sprint(i + 1)
		s.keys.take[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, "take "+n))
	}
	return s
}

func (s *stonesScreen) SetUpdate(u table.Update) {
	s.u = u
	if v, ok := u.View.(stonesState); ok {
		s.v = v
	}
	mine := u.Started && u.Seat == s.v.Turn && s.v.Winner == game.NoSeat
	for i := range s.keys.take {
		s.keys.take[i].SetEnabled(mine && i < s.v.Heap)
	}
}

func (s *stonesScreen) SetSize(int, int) {}

func (s *stonesScreen) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case uikit.UpdateMsg:
		s.SetUpdate(*m.Update)
	case tea.KeyMsg:
		for i, b := range s.keys.take {
			if b.Enabled() && key.Matches(m, b) {
				return s.acts.Send(uikit.ActMsg{Seq: s.u.Seq, Action: stonesTake(i + 1)})
			}
		}
	}
	return nil
}

func (s *stonesScreen) SendActionsTo(submit func(uikit.ActMsg)) { s.acts.To(submit) }

func (s *stonesScreen) View() string { return strings.Join(s.Look(), "\n") }

func (s *stonesScreen) Keys() help.KeyMap { return s.keys }

func (s *stonesScreen) Look() []string {
	return append(s.Table(), s.Asked())
}

func (s *stonesScreen) Hand() []string { return nil }

func (s *stonesScreen) Table() []string {
	if s.v.Winner != game.NoSeat {
		return []string{fmt.Sprintf("Stones: seat %d took the last one", s.v.Winner+1)}
	}
	return []string{fmt.Sprintf("Stones: %d left, seat %d to take", s.v.Heap, s.v.Turn+1)}
}

func (s *stonesScreen) Asked() string {
	if len(s.Moves()) == 0 {
		return ""
	}
	return fmt.Sprintf("Your turn: %d stones left", s.v.Heap)
}

func (s *stonesScreen) Moves() []uikit.Move {
	var out []uikit.Move
	for i, b := range s.keys.take {
		if b.Enabled() {
			out = append(out, uikit.Move{Label: b.Help().Desc, Commands: []string{b.Help().Desc}, Action: stonesTake(i + 1)})
		}
	}
	return out
}

// stonesEntry is the game as a server offers it: rules, bot, screen and
// a form of two fields.
func stonesEntry() uikit.Module {
	return uikit.Module{
		Entry:   game.Entry{Game: stones{}, Bots: stonesBots{}},
		Screen:  newStonesScreen,
		Players: uikit.Players{Min: 2, Max: 4, Default: 2},
		Form: uikit.Form{
			Fields: []uikit.Field{{Std: uikit.Seats}, {Std: uikit.BotLevel}, {Std: uikit.BotSeats}},
			Build: func(uikit.Choices) (uikit.TableSpec, error) {
				return uikit.TableSpec{Title: game.Raw("Stones")}, nil
			},
		},
	}
}

func TestStonesPassesTheConformanceSuite(t *testing.T) {
	t.Parallel()
	var setups []game.Setup
	for _, heap := range []int{1, 7, 20} {
		opts, _ := json.Marshal(stonesOptions{Heap: heap})
		setups = append(setups, game.Setup{Game: "stones", Names: []string{"a", "b", "c"}[:2+heap%2], Options: opts})
	}
	gametest.Run(t, gametest.Config{Game: stones{}, Setups: setups,
		Snapshot: func(s game.State) ([]byte, error) { return json.Marshal(s) }})
}

// Two people and a bot play Stones over SSH, one in plain mode and one
// on the full screen, on a server that offers it beside its own games:
// the lobby lists it, the table plays it, the store keeps its result.
func TestAGameOnlyItsEntryKnowsPlaysOverSSH(t *testing.T) {
	t.Parallel()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Guests: true,
		Games: append(Catalog(), stonesEntry())})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	srv.app.Room.BotDelay = 0

	ann := dialPlain(t, addr, "ann")
	made := strings.Join(ann.do("new stones 3 1"), "\n")
	code := regexp.MustCompile(`Table ([A-Z0-9]{4})`).FindStringSubmatch(made)
	if code == nil {
		t.Fatalf("new stones: %q", made)
	}
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithCommand("join "+code[1]))
	bob.ExpectScreen(t, `bob \(you\)`, 10*time.Second)
	ann.do("start")

	// Seven stones, ann, bob, then the bot: ann and bob take one each
	// time, the bot leaves a multiple of three, and takes the last.
	for _, left := range []int{7, 3} {
		ann.c.Expect(t, fmt.Sprintf(`Your turn: %d stones left`, left), 10*time.Second)
		if out := strings.Join(ann.do("take 1"), "\n"); strings.Contains(out, "not one of your moves") {
			t.Fatalf("ann's take 1 at %d: %s", left, out)
		}
		bob.ExpectScreen(t, fmt.Sprintf(`Stones: %d left, seat 2 to take`, left-1), 10*time.Second)
		bob.Type("1")
	}
	ann.c.Expect(t, `stones\.won`, 10*time.Second)
	bob.ExpectScreen(t, `seat 3 took the last one`, 10*time.Second)

	var rm persistence.RoomRecord
	clocktest.CheckFor(t, 10*time.Second, 10*time.Millisecond, func() (err error) {
		if rm, err = srv.store.Room(code[1]); err == nil && rm.Status != persistence.StatusFinished {
			err = fmt.Errorf("the game is stored as %s, not finished", rm.Status)
		}
		return err
	})
	if rm.Setup.Game != "stones" || rm.Result == nil || len(rm.Result.Winners) != 1 || rm.Result.Winners[0] != 2 {
		t.Fatalf("stored: game %q result %+v; want stones won by the bot in seat 3", rm.Setup.Game, rm.Result)
	}
	if help := strings.Join(ann.do("help"), "\n"); strings.Contains(help, "the coach's review") {
		t.Errorf("a game without a coach offers a review:\n%s", help)
	}
}
