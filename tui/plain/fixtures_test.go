package plain

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// coin is gametest's coin: seats take turns flipping; the third flip
// ends it.
type (
	coin      = gametest.Coin
	coinState = gametest.CoinState
)

// coinScreen is the coin's table screen; plain mode only sizes and feeds it.
type coinScreen struct{ u table.Update }

func (s *coinScreen) SetUpdate(u table.Update) { s.u = u }
func (s *coinScreen) SetSize(int, int)         {}
func (s *coinScreen) Update(tea.Msg) tea.Cmd   { return nil }
func (s *coinScreen) View() string {
	st, _ := s.u.View.(coinState)
	return fmt.Sprintf("flips: %d", st.Flips)
}
func (s *coinScreen) Keys() help.KeyMap { return coinKeys{} }

type coinKeys struct{}

func (coinKeys) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "flip"))}
}
func (k coinKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

type memProfiles map[string]string

func (p memProfiles) Keep(table.Player) {}

func (p memProfiles) SetName(id, name string) error {
	p[id] = name
	return nil
}

func testApp(t testing.TB) *tui.App {
	t.Helper()
	return &tui.App{
		Hub:      table.NewHub(t.Context(), nil),
		JoinHint: "ssh -p 2222 camp.example",
		Profiles: memProfiles{},
		Games: tui.Catalog{{
			Entry:   game.Entry{Game: coin{}},
			Screen:  func(*uikit.Theme) uikit.Screen { return &coinScreen{} },
			Players: uikit.Players{Min: 2, Max: 3, Default: 2},
			Form: uikit.Form{
				Fields: []uikit.Field{{Std: uikit.Seats}},
				Build: func(c uikit.Choices) (uikit.TableSpec, error) {
					return uikit.TableSpec{Title: game.Raw(fmt.Sprintf("Coin · %d players", c.Seats))}, nil
				},
			},
		}},
	}
}

// syncBuffer is a plain session's output, read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// driver types lines into a plain session and waits for its answers.
type driver struct {
	t   *testing.T
	in  *io.PipeWriter
	out *syncBuffer
}

func start(t *testing.T, a *tui.App, id, name string) *driver {
	r, w := io.Pipe()
	d := &driver{t: t, in: w, out: &syncBuffer{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(a, Session{Ctx: t.Context(), Player: table.Player{ID: id, Name: name}, Lang: i18n.English, In: r, Out: d.out})
	}()
	t.Cleanup(func() { w.Close(); <-done })
	return d
}

// do types line and waits until the output since then contains want.
func (d *driver) do(line, want string) string {
	d.t.Helper()
	from := len(d.out.String())
	io.WriteString(d.in, line+"\n")
	return d.wait(from, want)
}

func (d *driver) wait(from int, want string) string {
	d.t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if s := d.out.String()[from:]; strings.Contains(s, want) {
			return s
		}
	}
	d.t.Fatalf("no %q in:\n%s", want, d.out.String()[from:])
	return ""
}
