package server

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzledui"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// A player finishes a game of The Grizzled, then asks the coach for its
// review: as text without a terminal, and on the full screen. The coach
// refuses a game the caller did not play in and a game still under way,
// and keeps a review once done.
// quickCoach is a server whose coach rates The Grizzled with a small
// budget, for a game played through over SSH (see startGameServer).
func quickCoach(t *testing.T, why string) (*Server, string) {
	t.Helper()
	games := slices.Clone(Catalog())
	for i, g := range games {
		if _, ok := g.Review.(grizzledui.Reviewer); ok {
			games[i].Review = grizzledui.Reviewer{Config: grizzbot.ReviewConfig{Samples: 16}}
		}
	}
	return startGameServerWith(t, why, func(c *Config) { c.Games = games })
}

func TestTheCoachReviewsAFinishedGameForThoseWhoPlayedIt(t *testing.T) {
	t.Parallel()
	srv, addr := quickCoach(t, "a whole game over SSH") // the estimates' quality is grizzbot's to test
	guesses := withGuessClock(srv)
	annKey := sshtest.NewKey(t)
	ann := dialPlain(t, addr, "ann", sshtest.WithKey(annKey))
	made := strings.Join(ann.do("new grizzled 2 1"), "\n")
	code := regexp.MustCompile(`Table ([A-Z0-9]{4})`).FindStringSubmatch(made)
	if code == nil {
		t.Fatalf("new: %q", made)
	}
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 5*time.Second)
	ann.playToTheEnd()

	// A game under way is not reviewed: bob's, which ann did not play either.
	bob := dialPlain(t, addr, "bob")
	other := regexp.MustCompile(`Table ([A-Z0-9]{4})`).FindStringSubmatch(strings.Join(bob.do("new grizzled 2 1"), "\n"))
	bob.do("start")
	bob.c.Expect(t, `Mission 1 begins`, 5*time.Second)
	c := sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithoutPTY(), sshtest.WithCommand("review "+other[1]))
	if code := c.Wait(t, 10*time.Second); code != 1 || !strings.Contains(string(c.Transcript()), "no finished game "+other[1]) {
		t.Fatalf("review of a game under way: exit %d\n%s", code, c.Transcript())
	}
	guesses.Advance(time.Hour) // a miss is a wrong guess: the next waits

	// A garbled code is no game, said back cleaned.
	c = sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithoutPTY(), sshtest.WithCommand("review '\x1b[2J"+strings.Repeat("Z", 300)+"'"))
	if code := c.Wait(t, 10*time.Second); code != 1 || !strings.Contains(string(c.Transcript()), "no finished game") || strings.Contains(string(c.Transcript()), "\x1b[2J") {
		t.Fatalf("review of a garbled code: exit %d\n%q", code, c.Transcript())
	}
	guesses.Advance(time.Hour)

	// Someone who did not play ann's game is refused, and nothing is computed.
	c = sshtest.Dial(t, addr, sshtest.WithUser("eve"), sshtest.WithoutPTY(), sshtest.WithCommand("review "+code[1]))
	if code := c.Wait(t, 10*time.Second); code != 1 || !strings.Contains(string(c.Transcript()), "you did not play in game") {
		t.Fatalf("review by a stranger: exit %d\n%s", code, c.Transcript())
	}
	rm, err := srv.store.Room(code[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.store.Review(rm.ID); err == nil {
		t.Fatal("a refused review was computed")
	}

	// ann reads it as text: her summary, the chart, the note on noise.
	c = sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithoutPTY(), sshtest.WithCommand("review "+code[1]))
	if status := c.Wait(t, time.Minute); status != 0 {
		t.Fatalf("review: exit %d\n%s", status, c.Transcript())
	}
	text := string(c.Transcript())
	for _, want := range []string{"The coach's review of " + code[1], "ann · decisions: ", "100%┤", "Each estimate plays out 16 deals", "The team "} {
		if !strings.Contains(text, want) {
			t.Errorf("the review does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b") {
		t.Error("escape sequences in the text review")
	}
	// Its lines about a decision end with their moment, and `ssh host
	// replay CODE N` says the game there from ann's seat: her hand, nobody
	// else's; to someone who did not play, no hand at all.
	moment := regexp.MustCompile(`\d\. mission \d+, move \d+: [^#]*\(#(\d+)\)`).FindStringSubmatch(text)
	if moment == nil || !strings.Contains(text, "replay "+code[1]+" N shows the game") {
		t.Fatalf("the text review marks no decision's moment:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if w := uikit.Width(l); w > 80 {
			t.Errorf("a line of %d columns: %q", w, l)
		}
	}
	c = sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithoutPTY(), sshtest.WithCommand("replay "+code[1]+" "+moment[1]))
	if status := c.Wait(t, 10*time.Second); status != 0 {
		t.Fatalf("replay %s %s: exit %d\n%s", code[1], moment[1], status, c.Transcript())
	}
	if shown := string(c.Transcript()); !strings.Contains(shown, "Game "+code[1]+" at #") || strings.Count(shown, "Your hand: ") != 1 ||
		!strings.Contains(shown, "ann (you): ") {
		t.Fatalf("replay %s %s:\n%s", code[1], moment[1], shown)
	}
	c = sshtest.Dial(t, addr, sshtest.WithUser("eve"), sshtest.WithoutPTY(), sshtest.WithCommand("replay "+code[1]+" "+moment[1]))
	if status := c.Wait(t, 10*time.Second); status != 0 || strings.Contains(string(c.Transcript()), "Your hand: ") {
		t.Fatalf("replay %s %s by a stranger: exit %d\n%s", code[1], moment[1], status, c.Transcript())
	}
	if _, err := srv.store.Review(rm.ID); err != nil {
		t.Fatalf("the review was not kept: %v", err)
	}

	// On the full screen (ssh -t host review CODE), then back to the lobby.
	full := sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("review "+code[1]))
	full.ExpectScreen(t, `The coach's review of `+code[1], 10*time.Second)
	// Her summary follows the chart and its marks: below the first
	// screen when the game had many turning points.
	clocktest.CheckFor(t, 20*time.Second, 150*time.Millisecond, func() error {
		if strings.Contains(full.Screen(), "ann · decisions: ") {
			return nil
		}
		full.Type("j")
		return fmt.Errorf("no summary of ann's decisions:\n%s", full.Screen())
	})
	// From a line that names a decision, enter opens the replay there,
	// from ann's own seat: her hand as it was; esc comes back.
	clocktest.CheckFor(t, 20*time.Second, 150*time.Millisecond, func() error {
		if strings.Contains(full.Screen(), "enter replay") {
			return nil
		}
		full.Type("j")
		return fmt.Errorf("no line names a decision:\n%s", full.Screen())
	})
	full.Type("\r")
	full.ExpectScreen(t, `Replay of `+code[1]+` · move \d+ of`, 5*time.Second)
	full.ExpectScreen(t, `Your hand`, time.Second)
	full.Type("\x1b")
	full.ExpectScreen(t, `The coach's review of `+code[1], 5*time.Second)
	full.Type("\x1b")
	full.ExpectScreen(t, `Tables`, 5*time.Second)

	// In plain mode, at the finished table: how the game ended, the
	// missions in words with their outcomes, no bars.
	said := strings.Join(ann.do("review"), "\n")
	if !strings.Contains(said, "Mission 1: the team's chances") || !strings.Contains(said, "ann · decisions: ") || strings.ContainsAny(said, "█┤") ||
		!regexp.MustCompile(`The team (won|lost), in mission \d+\.`).MatchString(said) ||
		!regexp.MustCompile(`Mission 1: the team's chances \d+% before it → \d+%( after; it (succeeded|failed)|: the game was lost in it)`).MatchString(said) {
		t.Fatalf("plain review:\n%s", said)
	}
	// A line about a decision ends with its moment; replay N says the game
	// there as ann saw it: her hand, nobody else's.
	at := regexp.MustCompile(`\d\. mission \d+, move \d+: .*\(#(\d+)\)`).FindStringSubmatch(said)
	if at == nil || !strings.Contains(said, "replay "+code[1]+" N shows the game as it was then") {
		t.Fatalf("the plain review marks no decision's moment:\n%s", said)
	}
	shown := strings.Join(ann.do("replay "+at[1]), "\n")
	if !strings.Contains(shown, "Game "+code[1]+" at #") || strings.Count(shown, "Your hand: ") != 1 ||
		!regexp.MustCompile(`ann \(you\): `).MatchString(shown) {
		t.Fatalf("replay %s:\n%s", at[1], shown)
	}
	if said := strings.Join(ann.do("replay"), "\n"); !strings.Contains(said, "replay CODE N: a finished game at #N") {
		t.Fatalf("replay without a moment:\n%s", said)
	}
}

// A player who gave their seat to a bot at once made no decision of their
// own: the review says the bot that stood in for them made them, not that
// every move was forced, even where a review stored by an older coach (that
// did not count the stand-in's decisions) said otherwise.
func TestTheReviewSaysABotDecidedForWhoeverGaveTheirSeatUp(t *testing.T) {
	t.Parallel()
	srv, addr := quickCoach(t, "a whole game over SSH")
	annKey := sshtest.NewKey(t)
	ann := dialPlain(t, addr, "ann", sshtest.WithKey(annKey))
	code := regexp.MustCompile(`Table ([A-Z0-9]{4})`).FindStringSubmatch(strings.Join(ann.do("new grizzled 2 1"), "\n"))
	if code == nil {
		t.Fatal("no table made")
	}
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 5*time.Second)
	full := sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code[1]))
	full.ExpectScreen(t, `Mission 1`, 5*time.Second)
	full.Type("L")
	full.ExpectScreen(t, `Give your seat to a bot`, 5*time.Second)
	full.Type("y")
	full.ExpectScreen(t, `A bot plays your seat`, 5*time.Second)

	var rm persistence.RoomRecord
	clocktest.CheckFor(t, time.Minute, 20*time.Millisecond, func() error {
		var err error
		if rm, err = srv.store.Room(code[1]); err != nil {
			t.Fatal(err)
		}
		if rm.Status != persistence.StatusFinished {
			return fmt.Errorf("the bots did not finish the game: %s", rm.Status)
		}
		return nil
	})
	if err := srv.store.PutReview(rm.ID, []byte(`{"decisions":[],"missions":3,"samples":16}`)); err != nil {
		t.Fatal(err)
	}
	c := sshtest.Dial(t, addr, sshtest.WithUser("ann"), sshtest.WithKey(annKey), sshtest.WithoutPTY(), sshtest.WithCommand("review "+code[1]))
	if status := c.Wait(t, time.Minute); status != 0 {
		t.Fatalf("review: exit %d\n%s", status, c.Transcript())
	}
	text := strings.Join(strings.Fields(string(c.Transcript())), " ")
	if !strings.Contains(text, "ann · nothing to review: every decision was made by the bot that stood in for them") || strings.Contains(text, "forced") {
		t.Errorf("the review does not say a bot decided for ann:\n%s", c.Transcript())
	}
	raw, err := srv.store.Review(rm.ID)
	if err != nil || !strings.Contains(string(raw), `"stand_ins":{"0":`) {
		t.Errorf("the outdated review was not replaced: %s, %v", raw, err)
	}
}

// A table made with hints says so in its title, and h (here: hint, in
// plain mode) has the coach name one of the seat's moves; a table without
// hints says it has none.
func TestHintsAtATableThatGivesThem(t *testing.T) {
	t.Parallel()
	_, addr := startGameServer(t, "a game over SSH")
	ann := dialPlain(t, addr, "ann")
	form := ann.answer
	form("new grizzled", "Players")
	form("", "Rules")
	form("", "Bots")
	form("", "Bot seats")
	form("4", "Private")
	form("", "Pace")
	form("3", "Hints")
	if got := strings.Join(ann.do("2"), "\n"); !strings.Contains(got, "hints on") {
		t.Fatalf("the table's title does not say hints are on: %q", got)
	}
	if got := strings.Join(ann.do("help"), "\n"); !strings.Contains(got, "hint: the coach says") {
		t.Errorf("help at a hints table: %q", got)
	}
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 5*time.Second)
	clocktest.CheckFor(t, time.Minute, 10*time.Millisecond, func() error {
		if text := ann.text(); !strings.Contains(text, "(moves lists what you may do)") {
			return fmt.Errorf("nothing asked of ann:\n%s", text)
		}
		return nil
	})
	moves := strings.Join(ann.do("moves"), "\n")
	hint := strings.Join(ann.do("hint"), "\n")
	m := regexp.MustCompile(`Coach: (.+) \(team ≈\d+% ±\d+; next best: (.+), ≈\d+%\)|Coach: there is only one thing to do now: (.+)\.`).FindStringSubmatch(hint)
	if m == nil {
		t.Fatalf("hint: %q", hint)
	}
	if best := m[1] + m[3]; !strings.Contains(moves, best) {
		t.Fatalf("the hint %q is not one of the moves:\n%s", best, moves)
	}
	ann.do("leave")

	bob := dialPlain(t, addr, "bob")
	bob.do("new grizzled 3 2")
	bob.do("start")
	bob.c.Expect(t, `Mission 1 begins`, 5*time.Second)
	if got := strings.Join(bob.do("hint"), "\n"); !strings.Contains(got, "This table has no hints") {
		t.Fatalf("hint at a table without hints: %q", got)
	}
}

// A finished game whose registry entry brings no coach is refused in words
// that name no game, and nothing is computed.
func TestTheCoachRefusesAGameWithoutOne(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, t.TempDir())
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	rec, err := srv.store.PutRoom(persistence.RoomRecord{
		ID: "ABCD", Code: "ABCD", Setup: game.Setup{Game: werewolf.ID, Names: []string{"ann", "bot"}},
		Seats:  []persistence.SeatRecord{{Seat: 0, Identity: ann.ID, Name: "ann"}, {Seat: 1, Name: "bot", Bot: "easy"}},
		Status: persistence.StatusFinished, Result: &game.Result{Outcome: "village", Winners: []game.Seat{0}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = srv.reviews.Review("ABCD", ann)
	if got := i18n.For(i18n.English).Error(err); got != "game ABCD has no coach's review: the coach does not know that game" {
		t.Fatalf("review of a game without a coach: %q (%v)", got, err)
	}
	if _, err := srv.store.Review(rec.ID); err == nil {
		t.Fatal("a refused review was computed")
	}
}
