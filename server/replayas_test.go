package server

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
)

// The replay a review opens is the reader's own seat's: at every step
// their hand as it was and no other player's hidden one (each step's view
// is the very view that seat had, checked against a replay of the rules),
// and someone who did not sit in the game sees what a spectator sees.
func TestAReplayFromYourSeatShowsOnlyYourHand(t *testing.T) {
	t.Parallel()
	srv, _ := startGameServer(t, "a finished game replayed from a seat")
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
	setup := game.Setup{Game: "grizzled", Names: []string{"ann", "bob", "Bot 1 (bot)"}, Options: opts}
	const seed = 11
	s, _, err := grizzled.New(setup, seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := []game.Bot{grizzbot.NewEasy(), grizzbot.NewEasy(), grizzbot.NewEasy()}
	var entries [][]byte
	var states []*grizzled.State // after each action
	for n := 0; n < grizzbot.MaxActions; n++ {
		if _, over := s.Over(); over {
			break
		}
		seat := game.NoSeat
		for i := range s.Seats() {
			if s.WaitsOn(game.Seat(i)) {
				seat = game.Seat(i)
				break
			}
		}
		a, _ := bots[seat].Act(s.View(seat), uint64(n))
		if err := s.Step(seat, a.(grizzled.Action)); err != nil {
			t.Fatal(err)
		}
		raw, err := grizzled.EncodeAction(a.(grizzled.Action))
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, table.EncodeEntry(seat, raw))
		states = append(states, s.Clone())
	}
	res, _ := grizzled.Game{}.Result(s)
	rm := persistence.RoomRecord{ID: "RPLY", Code: "RPLY", Status: persistence.StatusFinished, Setup: setup, Seed: seed, Result: &res,
		Seats: []persistence.SeatRecord{{Seat: 0, Identity: "fp-ann", Name: "ann"}, {Seat: 1, Identity: "fp-bob", Name: "bob"},
			{Seat: 2, Name: "Bot 1 (bot)", Bot: "easy"}}}
	if _, err := srv.store.PutRoom(rm); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		if err := srv.store.Append(rm.ID, uint64(i+1), e); err != nil {
			t.Fatal(err)
		}
	}
	for _, who := range []struct {
		p    table.Player
		seat game.Seat
	}{{table.Player{ID: "fp-ann"}, 0}, {table.Player{ID: "fp-bob"}, 1}, {table.Player{ID: "fp-eve"}, game.Spectator}} {
		r, err := srv.records.ReplayAs("RPLY", who.p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Seat != who.seat || len(r.Steps) != len(states)+1 {
			t.Fatalf("%s: seat %d, %d steps; want seat %d, %d", who.p.ID, r.Seat, len(r.Steps), who.seat, len(states)+1)
		}
		for _, st := range r.Steps[1:] {
			v := st.View.(grizzled.SeatView)
			want := states[st.Index-1].View(who.seat)
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("%s, step %d: the view is not the seat's own", who.p.ID, st.Index)
			}
			if who.seat == game.Spectator && len(v.Hand) > 0 {
				t.Fatalf("%s, step %d: a spectator sees a hand %v", who.p.ID, st.Index, v.Hand)
			}
			if own := states[st.Index-1].Hand(who.seat); !slices.Equal(v.Hand, own) {
				t.Fatalf("%s, step %d: hand %v, the seat held %v", who.p.ID, st.Index, v.Hand, own)
			}
		}
	}
}
