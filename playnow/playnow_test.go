package playnow

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
)

func room(code, gameID string, open int, players ...string) table.Summary {
	return table.Summary{Code: code, Game: gameID, Status: table.StatusWaiting, Open: open, Players: players}
}

func TestPick(t *testing.T) {
	friend := func(id string) bool { return id == "fp-anna" }
	private := room("PRIVATE0", "grizzled", 3, "fp-zed")
	private.Private = true
	playing := room("PLAY", "grizzled", 1, "fp-x")
	playing.Status = table.StatusPlaying
	campaign := room("CAMP", "grizzled", 3)
	campaign.Campaign = "c1"
	practice := room("LRN1", "grizzled", 3)
	practice.Practice = true
	full := room("FULL", "grizzled", 0, "fp-a", "fp-b")
	for _, c := range []struct {
		name  string
		rooms []table.Summary
		me    string
		want  string
	}{
		{"nothing fits", []table.Summary{private, playing, campaign, practice, full, room("WOLF", "werewolf", 5)}, "fp-carol", ""},
		{"the one nearest to starting", []table.Summary{room("AAAA", "grizzled", 3, "fp-x"), room("BBBB", "grizzled", 1, "fp-y", "fp-z"), room("CCCC", "grizzled", 2)}, "fp-carol", "BBBB"},
		{"on a tie, the older", []table.Summary{room("AAAA", "grizzled", 2), room("BBBB", "grizzled", 2)}, "fp-carol", "AAAA"},
		{"as many open: more players waiting", []table.Summary{room("AAAA", "grizzled", 2), room("BBBB", "grizzled", 2, "fp-x", "fp-y")}, "fp-carol", "BBBB"},
		{"a friend's first", []table.Summary{room("AAAA", "grizzled", 1, "fp-x"), room("BBBB", "grizzled", 3, "fp-anna")}, "fp-carol", "BBBB"},
		{"one's own waiting table first", []table.Summary{room("AAAA", "grizzled", 1, "fp-anna"), room("BBBB", "grizzled", 0, "fp-carol", "fp-x")}, "fp-carol", "BBBB"},
	} {
		got, ok := Pick(c.rooms, "grizzled", c.me, friend)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: Pick = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}
