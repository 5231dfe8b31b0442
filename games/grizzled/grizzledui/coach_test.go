package grizzledui

import "testing"

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
