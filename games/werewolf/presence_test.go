package werewolf

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// The dead may not signal the living by coming and going (§11): that a
// dead player left or came back is for the dead; a living player's is for
// everyone, and once the game is over everyone hears everything.
func TestPresenceOfTheDeadIsForTheDead(t *testing.T) {
	s, _, err := NewState(namesN(8), DefaultOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Players[2].Alive, s.Players[5].Alive = false, false
	var g Game
	if a := g.PresenceAudience(s, 0); !a.All {
		t.Errorf("a living player's presence goes to %+v, want everyone", a)
	}
	a := g.PresenceAudience(s, 5)
	if a.All || !slices.Equal(a.Seats, []game.Seat{2, 5}) || a.Includes(game.Spectator) {
		t.Errorf("a dead player's presence goes to %+v, want seats 2 and 5 only", a)
	}
	s.Over = true
	if a := g.PresenceAudience(s, 5); !a.All {
		t.Errorf("after the game, presence goes to %+v, want everyone", a)
	}
}

// Only a living werewolf's line in the wolves' step is a move (it may get
// the little girl caught); other lines are plain chat.
func TestOnlyWolvesLinesAtNightAreMoves(t *testing.T) {
	s, _, err := NewState(namesN(8), DefaultOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	wolf, villager := -1, -1
	for i, p := range s.Players {
		switch {
		case p.Card == RoleWerewolf && wolf < 0:
			wolf = i
		case p.Card != RoleWerewolf && villager < 0:
			villager = i
		}
	}
	var g Game
	s.Phase = PhaseWolves
	if a, ok := g.ChatAction(s, game.Seat(wolf), "eat Anna"); !ok || a.(Action).Kind != KindSay || a.(Action).Text != "eat Anna" {
		t.Errorf("a wolf's line in the wolves' step: %v %v, want a say action", a, ok)
	}
	if _, ok := g.ChatAction(s, game.Seat(villager), "zzz"); ok {
		t.Error("a villager's line at night became a move")
	}
	s.Phase = PhaseDiscussion
	if _, ok := g.ChatAction(s, game.Seat(wolf), "not me"); ok {
		t.Error("a wolf's line by day became a move")
	}
}

// The wolves' channel is kept for the whole game and shown to those who
// know the pack (§5.1): a villager's view never holds it.
func TestPackChannelIsKeptForTheWolves(t *testing.T) {
	s, _, err := NewState(namesN(8), DefaultOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var wolf, villager = -1, -1
	for i, p := range s.Players {
		switch {
		case p.Card == RoleWerewolf && wolf < 0:
			wolf = i
		case p.Card != RoleWerewolf && villager < 0:
			villager = i
		}
	}
	s.Phase = PhaseWolves
	s.Players[wolf].KnowsWolves = true
	var g Game
	for i := range 60 {
		next, _, err := g.Apply(s, game.Seat(wolf), Action{Kind: KindSay, Text: fmt.Sprintf("line %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		s = next.(*State)
	}
	if v := s.View(game.Seat(wolf)); len(v.Pack) != 60 || v.Pack[0].Text != "line 0" {
		t.Fatalf("the wolf sees %d pack lines, want all 60", len(v.Pack))
	}
	if v := s.View(game.Seat(villager)); len(v.Pack) != 0 {
		t.Fatalf("a villager's view holds %d pack lines", len(v.Pack))
	}
	if v := s.View(game.Spectator); len(v.Pack) != 0 {
		t.Fatal("a spectator sees the pack channel during the game")
	}
}
