package grizzledui

import (
	"encoding/json"
	"testing"

	"bivouac/game"
	"bivouac/game/grizzled"
	"bivouac/table"
	"bivouac/tui/uikit"
)

// Space dismisses the lesson the player saw, even when a lesson about a
// decision has just gone in front of it (it is shown next, not lost).
func TestSpaceDismissesTheLessonOnShow(t *testing.T) {
	s := New(asciiTheme())
	s.coach = &coach{seen: map[string]bool{}}
	s.coach.teach("cards", "Threat cards show threats.")
	if text, _ := s.Lesson(); text != "Threat cards show threats." {
		t.Fatalf("on show: %q", text)
	}
	s.coach.teach("turn", "Your turn: play a card or withdraw.") // asked now: goes first
	s.NextLesson()                                               // the key meant for the lesson on screen
	if text, more := s.Lesson(); text != "Your turn: play a card or withdraw." || more != 0 {
		t.Fatalf("after space: %q (%d more), want the turn lesson, unseen until now", text, more)
	}
	s.NextLesson()
	if text, _ := s.Lesson(); text != "" {
		t.Fatalf("after the last space: %q", text)
	}
}

// The guided mission opens with its welcome, then the first decision's
// lesson (choose the intensity): the welcome came after the tip it
// introduces (issue 30 item 8).
func TestTheWelcomeComesFirst(t *testing.T) {
	th := asciiTheme()
	g := grizzled.Game{}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Beginner, Leader: 0})
	st, log, err := g.New(game.Setup{Game: "grizzled", Names: []string{"newbie", "Ada", "Bruno"}, Options: opts}, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(st, 0).(grizzled.SeatView)
	s := New(th)
	s.SetSize(80, 23)
	s.SetUpdate(table.Update{Room: "LRN1", Title: game.M(uikit.LearnTitle), Seat: 0, Seq: v.Seq, View: v, Log: game.Refs(log), LogEnd: len(log), Started: true})
	s.StartCoach()
	if text, more := s.Lesson(); text != th.T("learn.welcome") || more == 0 {
		t.Fatalf("the first lesson is %q (%d more), want the welcome", text, more)
	}
	s.NextLesson()
	if text, _ := s.Lesson(); text != th.T("learn.lead") {
		t.Fatalf("after the welcome: %q, want the intensity's lesson", text)
	}
}
