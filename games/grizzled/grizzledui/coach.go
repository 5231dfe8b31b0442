package grizzledui

import (
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The coach teaches the guided first mission: it watches the table and,
// the first time each step of a mission happens (the intensity, a hand, a
// turn, two of a threat, a withdrawal, support, the morale drop, a
// speech token), queues a short lesson in the player's language. The
// lessons are shown over the log one at a time; space goes to the next.
// The welcome, which says what all this is, comes first; a lesson about a
// decision (choose the intensity, a tile) goes next, before older news,
// and leaves by itself once the decision is made, read or not.
// The coach only reads the view and the log: the game is an ordinary one.

var _ uikit.Coached = (*Screen)(nil)

type coach struct {
	queue  []lesson        // lessons not yet dismissed; the first is shown
	shown  string          // the lesson last shown (Lesson), which space dismisses
	seen   map[string]bool // lessons given
	logEnd int             // events already read
	done   bool            // the last lesson was given
}

// lesson is one lesson queued; one about a decision (choose the
// intensity, a tile...) leaves the queue once the decision is made.
type lesson struct {
	id, text string
	asked    grizzled.ActionKind // the decision it is about (0: none)
}

// decisions are the lessons that explain a decision, with its action.
var decisions = map[string]grizzled.ActionKind{
	"lead": grizzled.ActIntensity, "turn": grizzled.ActWithdraw, "tile": grizzled.ActPlaceTile,
	"answer": grizzled.ActSpeechPass, "benefit": grizzled.ActBenefitDecline,
}

// StartCoach makes this screen the guided mission's (uikit.Coached).
func (s *Screen) StartCoach() {
	if s.coach == nil {
		s.coach = &coach{seen: map[string]bool{}}
		s.observe()
	}
}

// Lesson is the lesson on show ("" when none) and how many wait behind it.
func (s *Screen) Lesson() (text string, more int) {
	if s.coach == nil || len(s.coach.queue) == 0 {
		return "", 0
	}
	s.coach.shown = s.coach.queue[0].id
	return s.coach.queue[0].text, len(s.coach.queue) - 1
}

// NextLesson dismisses the lesson on show: the one the player last saw,
// not whichever is first when the key comes. A lesson about a decision
// goes to the front as soon as the decision is asked, and a space meant
// for the lesson on screen dismissed it unseen.
func (s *Screen) NextLesson() {
	c := s.coach
	if c == nil || len(c.queue) == 0 {
		return
	}
	if c.shown == "" { // nothing shown yet: the first
		c.queue = c.queue[1:]
		return
	}
	c.queue = slices.DeleteFunc(c.queue, func(l lesson) bool { return l.id == c.shown })
}

// CoachDone reports whether the guided mission has given its last lesson.
func (s *Screen) CoachDone() bool { return s.coach != nil && s.coach.done }

func (c *coach) teach(id, text string) {
	if c.seen[id] {
		return
	}
	c.seen[id] = true
	l := lesson{id: id, text: text, asked: decisions[id]}
	if l.asked != 0 {
		// about what is asked now: before older news, behind the welcome
		at := 0
		if len(c.queue) > 0 && c.queue[0].id == "welcome" {
			at = 1
		}
		c.queue = slices.Insert(c.queue, at, l)
		return
	}
	c.queue = append(c.queue, l)
}

// observe queues what the newest update teaches.
func (s *Screen) observe() {
	c, th, v := s.coach, s.th, s.v
	if c == nil || !s.hasView || c.done {
		return
	}
	me := s.u.Seat
	c.teach("welcome", th.T("learn.welcome"))
	// What happened: the events since the last update.
	n := s.u.LogEnd - c.logEnd
	if n < 0 || n > len(s.u.Log) {
		n = len(s.u.Log)
	}
	for i := len(s.u.Log) - n; i < len(s.u.Log); i++ {
		e := s.u.Log[i]
		switch e.Type {
		case grizzled.EvThreeThreats:
			c.teach("failed", th.T("learn.failed"))
		case grizzled.EvMissionWon:
			c.teach("success", th.T("learn.success"))
		case grizzled.EvWithdrew:
			if name := msgText(e.Msg, "Player"); name != "" && name != s.name(me) {
				c.teach("withdrew", th.T("learn.withdrew", game.Text("Player", name)))
			}
		case grizzled.EvSupport:
			c.teach("support", th.T("learn.support"))
		case grizzled.EvMoraleDrop:
			c.teach("morale", th.T("learn.morale"))
		case grizzled.EvLeaderChosen:
			c.teach("speech", th.T("learn.speech"))
		}
	}
	c.logEnd = s.u.LogEnd
	// A session that fell behind may have lost the withdrawal from its log
	// window (the mailbox keeps only the newest view); the table still
	// shows who is out, and the support reveal who placed a tile.
	for _, p := range v.Players {
		if p.Withdrawn && p.Seat != me && !p.Chaplain {
			c.teach("withdrew", th.T("learn.withdrew", game.Text("Player", s.name(p.Seat))))
		}
	}
	if ls := v.LastSupport; ls != nil && ls.Round == 1 {
		for _, t := range ls.Tiles {
			if t.From != me && !s.isChaplain(t.From) {
				c.teach("withdrew", th.T("learn.withdrew", game.Text("Player", s.name(t.From))))
			}
		}
	}
	// What is asked now.
	switch {
	case v.Round > 1: // the first mission's leader is taught; later ones are no news
	case s.has(grizzled.ActIntensity):
		c.teach("lead", th.T("learn.lead"))
	case v.Phase == grizzled.PhaseIntensity && v.Leader != me:
		c.teach("lead_other", th.T("learn.lead_other", game.Text("Player", s.name(v.Leader))))
	}
	if len(v.Hand) > 0 {
		c.teach("hand", th.T("learn.hand"))
	}
	if s.has(grizzled.ActPlay) || s.has(grizzled.ActWithdraw) {
		c.teach("turn", th.T("learn.turn"))
	}
	for t := range grizzled.NumThreats {
		if v.Counts[t] == 2 && v.Phase == grizzled.PhaseTurn {
			c.teach("danger", th.T("learn.danger", game.Text("Threat", s.threatName(grizzled.Threat(t)))))
		}
	}
	if s.has(grizzled.ActPlaceTile) {
		c.teach("tile", th.T("learn.tile"))
	}
	if s.has(grizzled.ActSpeechDiscard) || s.has(grizzled.ActSpeechPass) {
		c.teach("answer", th.T("learn.answer"))
	}
	if s.has(grizzled.ActBenefitCharm) || s.has(grizzled.ActBenefitDecline) {
		c.teach("benefit", th.T("learn.benefit"))
	}
	// A lesson about a decision goes once the decision is made.
	c.queue = slices.DeleteFunc(c.queue, func(l lesson) bool {
		myTurn := l.id == "turn" && (s.has(grizzled.ActPlay) || s.has(grizzled.ActWithdraw))
		return l.asked != 0 && !s.has(l.asked) && !myTurn
	})
	// The first mission is over once the second begins (or the game ended).
	if v.Round >= 2 || s.over() {
		c.teach("end", th.T("learn.end"))
		c.done = true
	}
}

// msgText is a text argument of a message ("" if it has none).
func msgText(m game.Msg, name string) string {
	for _, a := range m.Args {
		if a.Name == name {
			return a.Str
		}
	}
	return ""
}

// coachLines is the lesson on show, drawn over the log: a rule saying how
// to go on, then the lesson wrapped to w.
func (s *Screen) coachLines(w int) []string {
	text, more := s.Lesson()
	if text == "" {
		return nil
	}
	th := s.th
	label := th.T("learn.coach") + " · " + th.T("learn.close")
	if more > 0 {
		label = th.T("learn.coach") + " · " + th.T("learn.next", game.Num("N", more))
	}
	rule := th.Rule.Render("── ") + th.Accent.Render(label) + " " + th.Rule.Render(strings.Repeat("─", max(w-5-width(label), 0)))
	out := []string{th.Trunc(rule, w)}
	for _, l := range uikit.Wrap(text, w-2) {
		out = append(out, "  "+th.Strong.Render(l))
	}
	return out
}

// isChaplain reports whether seat is the 2-player game's chaplain.
func (s *Screen) isChaplain(seat game.Seat) bool {
	for _, p := range s.v.Players {
		if p.Seat == seat {
			return p.Chaplain
		}
	}
	return false
}
