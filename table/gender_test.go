package table

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// An event naming a player carries how they asked to be addressed, so a
// Polish viewer reads the sentence agreeing with it; the choice is kept
// with the seat (it outlives a restart).
func TestATableSaysAPlayersNameInTheirGender(t *testing.T) {
	clk, j := clocktest.New(), NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk, Journal: j, Bots: raceBots{}, Options: Options{BotLevel: "easy"}, Host: "anna",
		TakeoverAfter: 2 * time.Minute})
	anna := NewMailbox()
	if _, err := r.Join(context.Background(), Player{ID: "anna", Name: "Anna", Gender: game.Feminine}, anna, false); err != nil {
		t.Fatal(err)
	}
	bob, _ := join(t, r, "bob")
	if err := r.Start(context.Background(), anna); err != nil {
		t.Fatal(err)
	}
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.Detach(anna)
	clk.WaitTimers(t, 1)
	clk.Advance(2 * time.Minute)
	u := waitFor(t, bob, "a bot for Anna", func(u Update) bool {
		return slices.ContainsFunc(u.Log, func(e *game.Event) bool { return e.Msg.Key == "table.bot_stands_in" })
	})
	i := slices.IndexFunc(u.Log, func(e *game.Event) bool { return e.Msg.Key == "table.bot_stands_in" })
	if got, want := i18n.For(i18n.Polish).Event(u.Log[i]), "Dopóki Anna nie wróci, gra za nią bot."; got != want {
		t.Fatalf("Polish reads %q, want %q", got, want)
	}
	if rec, _ := j.Room(r.Code()); rec.Seats[0].Gender != game.Feminine {
		t.Fatalf("the seat's record keeps gender %d, want feminine", rec.Seats[0].Gender)
	}
}

// addressed gives each name its player's gender, a bot's from its name,
// nested messages included, and leaves the game's own message as it was.
func TestAddressedGivesEachNameItsGender(t *testing.T) {
	r := &Room{seats: []seatState{
		{rec: SeatRecord{Name: "Anna", Identity: "a", Gender: game.Feminine}},
		{rec: SeatRecord{Name: "Sam", Identity: "s"}},
		{rec: SeatRecord{Name: botName(1), Bot: "easy"}}, // Bruno
	}}
	in := game.M("x", game.Text("Player", botName(1)), game.Text("Target", "Sam"),
		game.List("Players", game.M("list.item", game.Text("Player", "Anna"))), game.Text("Code", "Anna?"))
	out := r.addressed(in)
	if g := out.Args[0].Gender; g != game.Masculine {
		t.Errorf("the bot Bruno: gender %d, want masculine", g)
	}
	if g := out.Args[1].Gender; g != game.GenderUnset {
		t.Errorf("Sam, who has not said: gender %d, want unset", g)
	}
	if g := out.Args[2].Msgs[0].Args[0].Gender; g != game.Feminine {
		t.Errorf("Anna in a list: gender %d, want feminine", g)
	}
	if g := out.Args[3].Gender; g != game.GenderUnset {
		t.Errorf("a text that names nobody: gender %d", g)
	}
	if in.Args[0].Gender != game.GenderUnset || in.Args[2].Msgs[0].Args[0].Gender != game.GenderUnset {
		t.Error("the game's own message was changed")
	}
}

// A replay names each player in the gender their seat kept, as the live
// table did.
func TestAReplayNamesPlayersInTheirGender(t *testing.T) {
	seats := []SeatRecord{{Name: "Anna", Identity: "a", Gender: game.Feminine}, {Name: botName(7), Bot: "easy"}} // Hugo
	steps := []Step{{Events: []game.Event{{Msg: game.M("table.bot_stands_in", game.Text("Player", "Anna"))}}},
		{Events: []game.Event{{Msg: game.M("table.bot_stands_in", game.Text("Player", botName(7)))}}}}
	AddressSteps(steps, seats)
	pl := i18n.For(i18n.Polish)
	for i, want := range []string{"Dopóki Anna nie wróci, gra za nią bot.", "Dopóki Hugo (bot) nie wróci, gra za niego bot."} {
		if got := pl.Event(&steps[i].Events[0]); got != want {
			t.Errorf("step %d reads %q, want %q", i, got, want)
		}
	}
}
