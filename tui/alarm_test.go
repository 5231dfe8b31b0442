package tui

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// tickModel passes on the screen ticks its program gets.
type tickModel struct{ got chan uikit.Tick }

func (tickModel) Init() tea.Cmd { return nil }
func (m tickModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if t, ok := msg.(uikit.Tick); ok {
		m.got <- t
	}
	return m, nil
}
func (tickModel) View() string { return "" }

// A table screen's timer goes through the session's alarm, kept by the
// pump on one runtime timer: the newest tick set is delivered at its time,
// one set later replaces it, and none comes once the wish is withdrawn.
func TestThePumpDeliversTheScreensAlarm(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	a := testApp(t)
	m := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "k1", Name: "Anna"}, Lang: i18n.English}, uikit.New(nil))
	got := make(chan uikit.Tick, 4)
	p := tea.NewProgram(tickModel{got}, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	go p.Run()
	go a.pump(ctx, p, m, false, nil)

	var ticks uikit.Ticks
	ticks.Use(m.alarm)
	now := time.Now()
	if cmd := ticks.At(now, now.Add(time.Hour)); cmd != nil {
		t.Fatal("a timer went to a tea.Tick with an alarm in use")
	}
	late, _ := ticks.Next()
	ticks.Fired(late) // as if it had come: the next wish replaces it
	ticks.At(now, now.Add(30*time.Millisecond))
	want, _ := ticks.Next()
	select {
	case tick := <-got:
		if !tick.Of(&ticks) || !tick.When().Equal(want.When()) {
			t.Fatalf("got the tick for %v, want the one for %v", tick.When(), want.When())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the alarm never rang")
	}
	ticks.Fired(want)
	now = time.Now()
	ticks.At(now, now.Add(150*time.Millisecond))
	time.Sleep(20 * time.Millisecond) // the pump sets its timer
	m.alarm.Set(uikit.Tick{})         // and then nothing is wished any more
	select {
	case tick := <-got:
		t.Fatalf("a tick came after the wish was withdrawn: %v", tick.When())
	case <-time.After(400 * time.Millisecond):
	}
}
