package server

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

var chooseRe = regexp.MustCompile(`enter (devour|see|shoot|badge to|vote|elect|lynch|first lover|link) `)

// werewolfMove picks keys from what the help bar offers, as a player who
// always acts: move the cursor a few players down (down) and choose, else
// finish the step (witch done, keep the thief card, keep eyes shut), else
// say ready.
func werewolfMove(bar string, down int) string {
	switch {
	case chooseRe.MatchString(bar) && strings.Contains(bar, "↑/↓") && down > 0:
		return strings.Repeat("j", down)
	case chooseRe.MatchString(bar):
		return "\r"
	case strings.Contains(bar, "x done"), strings.Contains(bar, "x keep card"), strings.Contains(bar, "x keep eyes shut"):
		return "x"
	case strings.Contains(bar, "1/2 take card"):
		return "1"
	case strings.Contains(bar, "r ready"):
		return "r"
	}
	return ""
}

// playWerewolf drives one client until its screen says the game is over.
func playWerewolf(c *sshtest.Client, seed uint64, done chan<- string) {
	rng := rand.New(rand.NewPCG(seed, 7))
	deadline := time.Now().Add(4 * time.Minute)
	last, moved := "", false
	for time.Now().Before(deadline) {
		screen := c.Screen()
		if strings.Contains(screen, "GAME OVER") {
			done <- screen
			return
		}
		down := 0
		if !moved {
			down = rng.IntN(4)
		}
		if k := werewolfMove(helpBar(screen), down); k != "" && screen != last {
			c.Type(k)
			last, moved = screen, k != "\r" && strings.HasPrefix(k, "j")
		}
		select {
		case <-c.Done():
			done <- "session ended: " + c.Screen()
			return
		case <-time.After(40 * time.Millisecond):
		}
	}
	done <- "timed out: " + c.Screen()
}

func TestWerewolvesTwoHumansAndBotsOverSSH(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("whole games over SSH")
	}
	for _, tc := range []struct {
		name  string
		cards string // keys on the Cards field
		seed  uint64 // a fixed deal: bob is a simple villager
	}{
		{"starter", "", 1},   // alice a villager too
		{"classic", "ll", 7}, // alice a werewolf; the witch and the seer lie in the middle
	} {
		t.Run(tc.name, func(t *testing.T) { playWerewolfGame(t, tc.cards, tc.seed) })
	}
}

// playWerewolfGame: alice opens a table of 8 (quick timers, fast nights, 6
// bots), bob joins, both play from what their screens offer until the end.
func playWerewolfGame(t *testing.T, cardsKeys string, seed uint64) {
	srv, addr := startServer(t, t.TempDir())
	if _, ok := srv.app.Games.Lookup(werewolf.ID); !ok {
		t.Fatal("the server does not offer werewolves")
	}
	srv.app.Room.BotDelay = 0
	// The phases' timers run out at a tenth of their length: quick timers
	// still keep night fall, dawn and verdict pauses of seconds.
	srv.app.Room.Clock = clocktest.NewFast(10)
	srv.app.NewSeed = func() uint64 { return seed } // a fixed deal; play still varies with timing

	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"), sshtest.WithPTY(80, 24))
	alice.ExpectScreen(t, `alice`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("l") // the second game: Werewolves
	alice.ExpectScreen(t, `Werewolves of Millers Hollow`, 5*time.Second)
	alice.Type("jj" + cardsKeys)
	alice.Type("j")  // Timers
	alice.Type("ll") // quick, fast nights
	alice.ExpectScreen(t, `▸ Timers\s+◂ quick, fast nights \[not in the rulebook\] ▸`, 5*time.Second)
	alice.Type("jj")     // Bot seats now
	alice.Type("llllll") // 6: with alice and bob, 8 seats
	alice.ExpectScreen(t, `▸ Bot seats now\s+◂ 6 ▸`, 5*time.Second)
	alice.Type("\r")
	code := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)
	alice.ExpectScreen(t, `bob\s+● here`, 5*time.Second)
	alice.Type("s")
	alice.ExpectScreen(t, `NIGHT 1`, 5*time.Second)
	bob.ExpectScreen(t, `NIGHT 1`, 5*time.Second)

	done := make(chan string, 2)
	go playWerewolf(alice, seed, done)
	go playWerewolf(bob, seed+1, done)
	var ends []string
	for range 2 {
		end := <-done
		if !strings.Contains(end, "GAME OVER") {
			t.Fatalf("a player did not reach the end:\n%s", end)
		}
		ends = append(ends, end)
	}
	if !regexp.MustCompile(`The village wins|The werewolves win|The lovers .* win|no winner`).MatchString(ends[0]) {
		t.Errorf("the end screen names no outcome:\n%s", ends[0])
	}

	// The game ended with a result, and the seats' cards are known from the
	// durable log.
	final := replayState(t, srv, code, werewolf.Game{}).(*werewolf.State)
	res, over := werewolf.Game{}.Result(final)
	if !over || res.Outcome == "" {
		t.Fatalf("the replayed game is not over: %+v", res)
	}
	t.Logf("outcome %s: %s", res.Outcome, res.Summary)
	if res.Outcome != werewolf.OutcomeNone && len(res.Winners) == 0 {
		t.Errorf("outcome %s without winners", res.Outcome)
	}

	// No leak: a villager human's terminal never showed another living
	// player's card before that card was revealed by a death.
	end := final.View(game.Spectator)
	clients := map[int]*sshtest.Client{0: alice, 1: bob}
	checked := 0
	for seat, c := range clients {
		me := end.Players[seat]
		if me.Original != werewolf.RoleVillager || me.Card != werewolf.RoleVillager {
			continue
		}
		checked++
		text := c.Text()
		for _, leak := range roleLeaks(text, end.Players, seat) {
			t.Errorf("%s's screen: %s", me.Name, leak)
		}
		t.Logf("%s (villager) checked: %d lines of screen text while alive", me.Name, strings.Count(aliveText(text), "\n"))
	}
	if checked == 0 {
		t.Error("neither human was a simple villager: the seed no longer deals bob a villager")
	}
}

// aliveText is a terminal's text while its player lives and the game goes
// on: the end screen reveals every card, and so does the graveyard (the dead
// see all, spec §12).
func aliveText(text string) string {
	for _, end := range []string{"GAME OVER", "in the graveyard", "You are dead"} {
		if i := strings.Index(text, end); i >= 0 {
			text = text[:i]
		}
	}
	return text
}

// roleLeaks reads a terminal's text while its player lives. Left of the
// column rule is the players list: a hidden card may show there only on a
// dead player's row (†). Right of it is the log: a line naming a player and
// their hidden card must be a death announcement ("… Card: Seer.").
func roleLeaks(text string, players []werewolf.PlayerView, self int) []string {
	var leaks []string
	text = aliveText(text)
	type secret struct {
		name *regexp.Regexp
		role string
	}
	var secrets []secret
	for i, p := range players {
		if i == self || p.Card == werewolf.RoleVillager {
			continue // a villager's own card; villagers' cards tell nothing
		}
		first := strings.Fields(p.Name)[0] // bots: "Ada (bot·normal)"
		secrets = append(secrets, secret{regexp.MustCompile(`\b` + regexp.QuoteMeta(first) + `\b`), p.Card.String()})
	}
	// A row redrawn in place reads as one line of text with the updates
	// side by side, so each "│"-separated piece is judged on its own: a
	// piece may name a living player with a hidden card only in a death
	// context (a † row, or a "Card: X" death line).
	for n, line := range strings.Split(text, "\n") {
		for _, piece := range strings.Split(line, "│") {
			for _, s := range secrets {
				if s.name.MatchString(piece) && strings.Contains(piece, s.role) &&
					!strings.Contains(piece, "†") && !strings.Contains(piece, "Card: "+s.role) {
					leaks = append(leaks, fmt.Sprintf("line %d: %s shown with %s outside a death: %q", n, s.name, s.role, line))
				}
			}
		}
	}
	return leaks
}

func TestRoleLeaksCatchesALeak(t *testing.T) {
	t.Parallel()
	players := []werewolf.PlayerView{{Name: "alice", Card: werewolf.RoleVillager}, {Name: "Ada (bot·easy)", Card: werewolf.RoleWerewolf},
		{Name: "bob", Card: werewolf.RoleSeer}}
	clean := "  2 Ada (bot…   │ A game of 8 players. The deck: Werewolf, Seer\n" +
		"  2 Ada (bot…   │ Ada (bot·easy) was lynched by the village. Card: Werewolf.\n" +
		"  2 Ada (bot…  † Werewolf, lynched │ bob: I am not the seer\n" +
		"  3 bob   │ the end\nGAME OVER\n  3 bob   Seer"
	if l := roleLeaks(clean, players, 0); len(l) != 0 {
		t.Errorf("false alarm: %v", l)
	}
	for _, leaky := range []string{"  2 Ada (bot…   Werewolf │ x", "  3 bob  seen: Seer │ x", "  1 alice │ » bob is the Seer"} {
		if l := roleLeaks(leaky, players, 0); len(l) == 0 {
			t.Errorf("missed the leak in %q", leaky)
		}
	}
}
