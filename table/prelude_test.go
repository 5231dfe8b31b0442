package table

import (
	"context"
	"fmt"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// choosyRace is race where players pick a colour and the table names who
// begins (game.Prelude); New tells what it was given.
type choosyRace struct{ race }

func (choosyRace) Picks() []game.Pick {
	return []game.Pick{{ID: "red", Label: game.M("red")}, {ID: "blue", Label: game.M("blue")}}
}
func (choosyRace) NamesFirst() bool { return true }
func (g choosyRace) New(s game.Setup, seed uint64) (game.State, []game.Event, error) {
	st, evs, err := g.race.New(s, seed)
	evs = append(evs, game.Event{Audience: game.Everyone(), Text: fmt.Sprintf("picks %q first %d", s.Picks, s.First)})
	return st, evs, err
}

// Choices made in the waiting room (a seat's own pick, the host naming
// who begins) are kept through a restart and handed to the game at the
// start; a pick another seat holds is refused.
func TestPreludeChoicesReachTheGame(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, choosyRace{}, RoomConfig{Seats: 2, Journal: j})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Pick(alice, "blue")
	waitFor(t, bob, "alice's pick", func(u Update) bool { return len(u.Seats) == 2 && u.Seats[0].Pick == "blue" })
	r.Pick(bob, "blue")
	waitFor(t, bob, "the refusal", func(u Update) bool { return noticeText(u.Notice) == "alice chose that already" })
	r.Pick(bob, "red")
	r.NameFirst(alice, 1)
	waitFor(t, alice, "bob named first", func(u Update) bool { return len(u.Seats) == 2 && u.Seats[1].First && u.Seats[1].Pick == "red" })

	rec, _ := j.Room(r.Code())
	r.Close(Restarting)
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: choosyRace{}, Journal: j}, rec, j.Log(r.Code()))
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := join(t, r2, "alice")
	join(t, r2, "bob")
	if err := r2.Start(context.Background(), a2); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a2, "the start", func(u Update) bool { return u.Started })
	if lastWith(u, `picks ["blue" "red"] first 2`) == "" {
		t.Fatalf("the game was not given the choices: %v", u.Log)
	}
	if rec, _ := j.Room(r.Code()); rec.Setup.First != 2 || len(rec.Setup.Picks) != 2 {
		t.Fatalf("the started game's setup is not saved with its choices: %+v", rec.Setup)
	}
}
