package grizzled

import (
	"encoding/json"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// Players may choose their soldiers and the table may name the first
// leader (S1, S5); what is not chosen is drawn, and a game nobody chose
// anything in deals exactly as before.
func TestChosenSoldiersAndFirstLeader(t *testing.T) {
	opts, _ := json.Marshal(Options{Variant: Standard, Leader: game.NoSeat})
	names := []string{"Ann", "Bob", "Cid", "Dee"}
	plain, _, err := New(game.Setup{Game: "grizzled", Names: names, Options: opts}, 42)
	if err != nil {
		t.Fatal(err)
	}
	chosen, _, err := New(game.Setup{Game: "grizzled", Names: names, Options: opts,
		Picks: []string{"C6", "", "C6", "C2"}, First: 3}, 42)
	if err != nil {
		t.Fatal(err)
	}
	if chosen.players[0].Character != 5 || chosen.players[3].Character != 1 {
		t.Errorf("picks not honoured: Ann %d, Dee %d", chosen.players[0].Character, chosen.players[3].Character)
	}
	if chosen.players[2].Character == 5 {
		t.Error("Cid took Ann's soldier: a soldier goes to one player")
	}
	seen := map[int]bool{}
	for _, p := range chosen.players {
		if seen[p.Character] {
			t.Fatalf("soldier %d dealt twice", p.Character)
		}
		seen[p.Character] = true
	}
	if chosen.leader != 2 {
		t.Errorf("first leader %d, want Cid (seat 2)", chosen.leader)
	}
	// Without choices, the same seed deals the same soldiers and draws as before.
	again, _, _ := New(game.Setup{Game: "grizzled", Names: names, Options: opts}, 42)
	for i := range plain.players {
		if plain.players[i].Character != again.players[i].Character {
			t.Fatal("the draw is not stable")
		}
	}
	if plain.trials[0] != chosen.trials[0] {
		t.Error("choosing soldiers changed the cards' order")
	}
	var g Game
	if len(g.Picks()) != 6 || !g.NamesFirst() {
		t.Error("the Grizzled offers six soldiers and a named first leader")
	}
}
