package werewolfui

import (
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

var _ uikit.Muting = (*Screen)(nil)

// Mute names the seats whose pack-channel lines this session does not
// draw (the players it ignores); the log's chat comes already without
// theirs. The pack's moves (a wolf pointing at a victim) are not chat and
// stay.
func (s *Screen) Mute(seats []game.Seat) { s.muted = seats }

// mutedLine reports whether a chat line from seat is one this session
// does not draw.
func (s *Screen) mutedLine(from game.Seat) bool {
	return from >= 0 && slices.Contains(s.muted, from)
}
