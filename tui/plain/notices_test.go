package plain

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/table"
)

// In plain mode a notice is said once, with the bell and the command that
// answers it; "accept" at another table takes the player to the table
// the notice names.
func TestPlainSaysANoticeAndAcceptJoins(t *testing.T) {
	a := testApp(t)
	a.Notices = notice.NewBoard(nil)
	if _, err := a.Hub.Create(table.RoomConfig{Code: "K7QX", Game: coin{}, Title: game.Raw("Coin · 2"), Seats: 2, Host: "fp-anna"}); err != nil {
		t.Fatal(err)
	}
	bob := start(t, a, "fp-bob", "bob")
	bob.do("accept", "No notice to answer.")
	bob.do("new coin 2", "Table")
	from := len(bob.out.String()) // the session answered: its inbox is open
	a.Notices.Post(notice.Notice{ID: "invite:K7QX", To: "fp-bob", From: "fp-anna", Text: game.Raw("anna invites you to K7QX"),
		Act: notice.Act{Verb: notice.VerbJoin, Arg: "K7QX"}})
	said := bob.wait(from, "\a")
	if !strings.Contains(said, "anna invites you to K7QX (type accept to answer)") {
		t.Fatalf("the notice was said as:\n%q", said)
	}
	bob.do("accept", "Table K7QX")
	bob.do("accept", "No notice to answer.")
}

// games is the player's command, not the table's: at a table it lists
// the tables they sit at, as in the lobby (it answered "Nothing to do
// now.", the table's word for a move it did not know).
func TestGamesAnswersAtATable(t *testing.T) {
	a := testApp(t)
	if _, err := a.Hub.Create(table.RoomConfig{Code: "K7QX", Game: coin{}, Title: game.Raw("Coin · 2"), Seats: 2, Host: "fp-anna"}); err != nil {
		t.Fatal(err)
	}
	bob := start(t, a, "fp-bob", "bob")
	bob.do("join K7QX", "Table K7QX")
	said := bob.do("games", "K7QX: Coin · 2")
	if strings.Contains(said, "Nothing to do") {
		t.Errorf("games at a table: %q", said)
	}
}
