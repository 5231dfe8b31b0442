package server

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// coachRule is the coach's line over a lesson.
var coachRule = regexp.MustCompile(`── Coach · space: (next tip|close)`)

// A newcomer's guided first mission, from `ssh -t host learn`: a scripted
// player reads each lesson (space), the welcome first, plays a card on its first turn and
// then withdraws, and reaches the coach's last lesson after the first
// mission, having been taught every step of it.
//
// The player acts once per lesson on show: a lesson leaves with the key
// that answers it (space, or the decision it explains), so a second key
// sent on a screen that had not caught up yet would answer whatever came
// next, unseen (a second enter on the intensity plays the first card,
// and the turn's lesson goes with the turn). Which lessons were taught is
// read from every row the session drew, not from the screens looked at.
//
// Serial: its one-key-per-lesson script is sensitive to timing.
func TestTheGuidedMissionReachesItsEnd(t *testing.T) {
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	c := sshtest.Dial(t, addr, sshtest.WithUser("nell"), sshtest.WithCommand("learn"), sshtest.WithPTY(80, 24))
	c.ExpectScreen(t, `Guided first mission`, 5*time.Second)

	screen, answered, played := "", "", false
	for deadline := time.Now().Add(2 * time.Minute); ; {
		screen = c.NextScreen(t, screen, time.Until(deadline))
		lesson := ""
		if loc := coachRule.FindStringIndex(screen); loc != nil {
			lesson = strings.TrimSpace(strings.SplitN(screen[loc[1]:], "\n", 3)[1])
		}
		if strings.HasPrefix(lesson, "That was a whole mission") {
			break
		}
		if lesson != "" && lesson == answered {
			continue // the key that answers it is on its way
		}
		answered = lesson
		// The welcome is read first, though the intensity is asked behind
		// it; a decision's lesson leaves with the decision.
		if lesson != "" && (strings.HasPrefix(lesson, "Welcome") || !strings.Contains(helpBar(screen), "enter")) {
			c.Type(" ")
			continue
		}
		k := playerMove(helpBar(screen))
		if k == "p" && played && strings.Contains(helpBar(screen), "w withdraw") {
			k = "w"
		}
		played = played || k == "p"
		if k != "" {
			c.Type(k)
		}
	}
	drawn := c.Text()
	if w, l := strings.Index(drawn, "Welcome to the trenches."), strings.Index(drawn, "You lead this mission"); w < 0 || l < w {
		t.Errorf("the welcome (at %d) is not drawn before the intensity's lesson (at %d)", w, l)
	}
	for _, want := range []string{
		"Welcome to the trenches.",
		"You lead this mission: choose the intensity",
		"Your hand is at the bottom of the screen.",
		"Your turn. Play a card",
		"You withdraw: choose a support tile.",
		"withdrew: out of this mission",
		"Support: the tiles are turned up",
		"Morale drops: as many cards",
		"The outgoing leader takes a speech token.",
	} {
		if !strings.Contains(drawn, want) {
			t.Errorf("never taught %q; the last screen:\n%s", want, screen)
		}
	}
}

// In plain mode learn opens the same mission and reads each lesson once,
// as a line, before what is asked.
func TestTheGuidedMissionInPlainMode(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	p := dialPlain(t, addr, "pia")
	p.do("learn")
	p.c.Expect(t, `Coach: You lead this mission: choose the intensity`, 5*time.Second)
	p.do("deal 3")
	p.c.Expect(t, `Coach: Your turn\. Play a card`, 5*time.Second)
	text := p.text()
	if strings.Count(text, "Coach: Welcome to the trenches.") != 1 || strings.Count(text, "Coach: You lead this mission") != 1 {
		t.Fatalf("each lesson once:\n%s", text)
	}
	noEscapes(t, p)
}

// ? at a Werewolves table explains Werewolves, never The Grizzled; R opens
// its rules on the primer.
func TestWerewolvesHelpAndRulesAreWerewolves(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	c := sshtest.Dial(t, addr, sshtest.WithUser("wanda"), sshtest.WithPTY(80, 24))
	c.ExpectScreen(t, `wanda`, 5*time.Second)
	c.Type("n")
	c.Type("l") // Werewolves
	c.ExpectScreen(t, `Werewolves of Millers Hollow`, 5*time.Second)
	c.Type("jjj")     // Timers
	c.Type("ll")      // quick, fast nights
	c.Type("jj")      // Bot seats now
	c.Type("lllllll") // 7 bots
	c.Type("\r")
	c.ExpectScreen(t, `New to this game\? R opens its rules`, 5*time.Second)
	c.Type("s")
	c.ExpectScreen(t, `NIGHT 1`, 5*time.Second)
	c.Type("?")
	help := c.ExpectScreen(t, `Werewolves: the village must find`, 5*time.Second)[0]
	if strings.Contains(c.Screen(), "Grizzled") || strings.Contains(c.Screen(), "No Man's Land") {
		t.Fatalf("Grizzled words in the Werewolves help:\n%s", help)
	}
	c.Type("x") // any key closes the help
	c.Type("R")
	c.ExpectScreen(t, `Rules · The Werewolves of Millers Hollow`, 5*time.Second)
	c.ExpectScreen(t, `▸ Werewolves in one screen`, 5*time.Second)
}
