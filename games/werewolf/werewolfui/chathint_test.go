package werewolfui

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/table"
)

func TestChatHintFollowsWhereTheLineGoes(t *testing.T) {
	cases := []struct {
		v    werewolf.SeatView
		want string
	}{
		{werewolf.SeatView{Alive: false, Phase: werewolf.PhaseDiscussion}, "other dead"},
		{werewolf.SeatView{Alive: false, LastBreath: true, Phase: werewolf.PhaseHunterShot}, "cannot talk"}, // the game refuses it
		{werewolf.SeatView{Alive: true, Phase: werewolf.PhaseWolves, Wolves: []game.Seat{2, 4}}, "pack"},
		{werewolf.SeatView{Alive: true, Phase: werewolf.PhaseWolves}, "sleeps"},
		{werewolf.SeatView{Alive: true, Phase: werewolf.PhaseDiscussion}, "village"},
	}
	for _, c := range cases {
		s := New(asciiTheme())
		s.SetUpdate(table.Update{Started: true, View: c.v})
		if got := s.ChatHint(); !strings.Contains(got, c.want) {
			t.Errorf("phase %v alive %v: hint %q, want %q", c.v.Phase, c.v.Alive, got, c.want)
		}
	}
}
