package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/table"
)

// A notice reaches a player at another table's screen: it rings once,
// shows as a banner with its key over the table, and A takes the player
// to the table it names (keeping the seat they leave). A notice from a
// player the session ignores is dropped unseen.
func TestANoticeShowsRingsAndItsKeyJoins(t *testing.T) {
	a := testApp(t)
	a.Notices = notice.NewBoard(nil)
	if _, err := a.Hub.Create(table.RoomConfig{Code: "K7QX", Game: coin{}, Title: game.Raw("Coin · 2"), Seats: 2, Host: "fp-anna"}); err != nil {
		t.Fatal(err)
	}
	bob := newSession(t, a, "fp-bob", "bob")
	bob.m.inbox = a.Notices.Open("fp-bob")
	bob.keys("n", "enter")
	mine := codeRe.FindStringSubmatch(bob.pump(`Table [A-Z0-9]{4}`))[1]
	bob.m.lists.loaded = true
	bob.m.lists.Ignored = []Person{{ID: "fp-mallory", Name: "mallory"}}

	a.Notices.Post(notice.Notice{ID: "spam", To: "fp-bob", From: "fp-mallory", Text: game.Raw("buy gold")})
	a.Notices.Post(notice.Notice{ID: "invite:K7QX", To: "fp-bob", From: "fp-anna",
		Text: game.Raw("anna invites you to K7QX"), Act: notice.Act{Verb: notice.VerbJoin, Arg: "K7QX"}})
	bob.send(noticesMsg(bob.m.inbox.Take()))
	v := bob.m.View()
	if !strings.Contains(v, "✉ anna invites you to K7QX · A: join") || strings.Contains(v, "buy gold") {
		t.Fatalf("bob's table screen with the notice:\n%s", v)
	}
	// At a table the banner takes the help bar's line: the game's screen
	// keeps all 23 of its lines at 80×24.
	if lines := strings.Split(v, "\n"); len(lines) != 24 || !strings.Contains(lines[23], "✉") || strings.Contains(v, "too small") {
		t.Fatalf("the banner is not on the help bar's line (%d lines):\n%s", len(lines), v)
	}
	if !bob.m.Bell() || bob.m.Bell() {
		t.Error("the notice did not ring the bell exactly once")
	}
	bob.keys("A")
	bob.pump(`Table K7QX`)
	if v := bob.m.View(); strings.Contains(v, "✉") {
		t.Errorf("the banner stayed after it was answered:\n%s", v)
	}
	if r := a.Hub.Local(mine); r == nil || !strings.Contains(strings.Join(r.Summary().Players, ","), "fp-bob") {
		t.Error("bob lost his seat at his own table by answering")
	}
}

// A withdrawn notice takes its banner down; a lapsed one is not shown.
func TestAWithdrawnNoticeGoes(t *testing.T) {
	a := testApp(t)
	a.Notices = notice.NewBoard(nil)
	bob := newSession(t, a, "fp-bob", "bob")
	bob.m.inbox = a.Notices.Open("fp-bob")
	a.Notices.Post(notice.Notice{ID: "invite:K7QX", To: "fp-bob", Text: game.Raw("come"), Act: notice.Act{Verb: notice.VerbJoin, Arg: "K7QX"}})
	bob.send(noticesMsg(bob.m.inbox.Take()))
	if !strings.Contains(bob.m.View(), "✉ come") {
		t.Fatalf("no banner:\n%s", bob.m.View())
	}
	a.Notices.Withdraw("fp-bob", "invite:K7QX")
	bob.send(noticesMsg(bob.m.inbox.Take()))
	if strings.Contains(bob.m.View(), "✉") {
		t.Fatalf("the withdrawn notice still shows:\n%s", bob.m.View())
	}
	bob.send(noticesMsg{{ID: "old", To: "fp-bob", Text: game.Raw("late"), Until: time.Now().Add(-time.Second)}})
	if strings.Contains(bob.m.View(), "late") {
		t.Fatalf("a lapsed notice shows:\n%s", bob.m.View())
	}
}
