package grizzledui

import (
	"encoding/json"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
)

// The guided mission opens with its welcome, then the lesson of the first
// decision (choose the intensity); a player who answers the intensity
// while the welcome is on show finds no lesson about it left behind, and
// space goes on to what comes next (issue 30 item 8).
func TestTheWelcomeComesBeforeTheFirstTip(t *testing.T) {
	th := asciiTheme()
	g := grizzled.Game{}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Beginner, Leader: 0})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: []string{"newbie", "Ada", "Bruno"}, Options: opts}, 1)
	if err != nil {
		t.Fatal(err)
	}
	show := func(s *Screen, st game.State, log []game.Event) {
		v := g.View(st, 0).(grizzled.SeatView)
		s.SetUpdate(table.Update{Room: "LRN1", Title: game.M("learn.table_title"), Options: table.Options{Practice: true}, Seat: 0, Seq: v.Seq, View: v,
			Log: game.Refs(log), LogEnd: len(log), Started: true})
	}
	start := func(t *testing.T) *Screen {
		t.Helper()
		s := New(th)
		s.SetSize(80, 23)
		show(s, st, log)
		s.StartCoach()
		if text, more := s.Lesson(); text != th.T("learn.welcome") || more == 0 {
			t.Fatalf("the first lesson is %q (%d more), want the welcome", text, more)
		}
		return s
	}

	t.Run("read in order", func(t *testing.T) {
		s := start(t)
		s.NextLesson()
		if text, _ := s.Lesson(); text != th.T("learn.lead") {
			t.Fatalf("after the welcome: %q, want the intensity's lesson", text)
		}
	})

	t.Run("answered during the welcome", func(t *testing.T) {
		s := start(t)
		st := g.Clone(st)
		_, more, err := g.Apply(st, 0, grizzled.Action{Kind: grizzled.ActIntensity, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		show(s, st, append(append([]game.Event(nil), log...), more...))
		for text, _ := s.Lesson(); text != ""; text, _ = s.Lesson() {
			if text == th.T("learn.lead") {
				t.Fatal("the intensity's lesson is still queued after the intensity was chosen")
			}
			s.NextLesson()
		}
	})
}
