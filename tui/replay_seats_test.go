package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzledui"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// grizzledReplay serves one game of The Grizzled, just dealt, whose
// seats (as stored) say nothing of anyone's connection.
type grizzledReplay struct{ Records }

func (grizzledReplay) Replay(code string) (Replay, error) {
	g := grizzled.Game{}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: 0})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: []string{"anna", "bob", "cid"}, Options: opts}, 1)
	if err != nil {
		return Replay{}, err
	}
	return Replay{Code: code, Title: game.Raw("The Grizzled"), Game: "grizzled",
		Seats: []table.SeatInfo{{Seat: 0, ID: "fp-anna", Name: "anna"}, {Seat: 1, ID: "fp-bob", Name: "bob"}, {Seat: 2, ID: "fp-cid", Name: "cid"}},
		Steps: []table.Step{{View: g.View(st, game.Spectator), Events: log}}}, nil
}

// A replay marks nobody away: presence belongs to the live table, and
// every player of a replay was shown as "(away)", in German "(weg)"
// (issue 30 item 8).
func TestAReplayMarksNobodyAway(t *testing.T) {
	a := testApp(t)
	a.Games = append(a.Games, uikit.Module{Entry: game.Entry{Game: grizzled.Game{}}, Screen: func(th *uikit.Theme) uikit.Screen { return grizzledui.New(th) }})
	a.Records = grizzledReplay{}
	s := newSession(t, a, "fp-anna", "anna")
	openReplay(s.m, "K7QX", nil)
	v := s.m.View()
	if !strings.Contains(v, "anna") || !strings.Contains(v, "bob") {
		t.Fatalf("the replay does not show the soldiers:\n%s", v)
	}
	if strings.Contains(v, s.m.th.T("ui.tag.away")) {
		t.Fatalf("the replay marks players away:\n%s", v)
	}
}
