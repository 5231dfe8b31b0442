package table

import (
	"context"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// ghostRace is race where seat 2 is "dead": only it may hear that it
// comes or goes (as in Werewolves).
type ghostRace struct{ race }

func (ghostRace) PresenceAudience(_ game.State, seat game.Seat) game.Audience {
	if seat == 2 {
		return game.Only(2)
	}
	return game.Everyone()
}

// A player the game keeps quiet cannot signal the table by leaving and
// coming back: the notices reach only those the game allows.
func TestPresenceNoticesGoOnlyWhereTheGameSays(t *testing.T) {
	_, r := newTestRoom(t, ghostRace{}, RoomConfig{Seats: 3})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	carol, _ := join(t, r, "carol")
	r.Start(context.Background(), alice)
	waitFor(t, carol, "the start", func(u Update) bool { return u.Started })
	r.StepAway(carol)
	carol2, _ := join(t, r, "carol")
	back := waitFor(t, carol2, "carol is back", func(u Update) bool { return lastWith(u, "carol is back") != "" })
	if lastWith(back, "carol stepped away") == "" {
		t.Error("carol does not hear her own coming and going")
	}
	r.StepAway(alice)
	alice2, _ := join(t, r, "alice")
	u := waitFor(t, alice2, "alice is back", func(u Update) bool { return lastWith(u, "alice is back") != "" })
	for _, e := range u.Log {
		if strings.Contains(evText(e), "carol stepped away") || strings.Contains(evText(e), "carol is back") {
			t.Errorf("alice heard about carol: %q", evText(e))
		}
	}
}
