package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// A guest who may only watch (--guests watch) is told so at n or g in the
// lobby, before any form, and is not offered the guided mission.
func TestWatchOnlyGuestIsToldAtOnce(t *testing.T) {
	a := testApp(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "guest:g", Name: "gus", Guest: true, WatchOnly: true}, Lang: i18n.English},
		a.Theme(nil, i18n.English, false))
	gus := &session{t: t, m: m}
	gus.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := gus.m.View(); strings.Contains(v, "guided first mission") {
		t.Errorf("a watch-only guest is offered the guided mission:\n%s", v)
	}
	// Plain mode and every other way to a new table go through Create.
	if _, err := a.Create(a.Games[0], uikit.TableSpec{Seats: 2}, gus.m.sess.Player); !errors.Is(err, table.ErrWatchOnly) {
		t.Errorf("Create for a watch-only guest: %v", err)
	}
	for _, k := range []string{"n", "g"} {
		gus.keys(k)
		v := gus.m.View()
		if !strings.Contains(v, "guests may only watch here") || strings.Contains(v, "New table") {
			t.Errorf("%s: not told at once:\n%s", k, v)
		}
	}
}
