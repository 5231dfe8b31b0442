package werewolfui

import "github.com/bivouac-ssh/bivouac/games/werewolf"

// ChatHint says where a chat line goes now, as Game.Say routes it: the
// dead talk among themselves (not while a last-breath choice is pending:
// the game refuses that line), a werewolf whispers to the pack during the
// wolves' step, the village talks by day, and nobody else talks at night.
func (s *Screen) ChatHint() string {
	v := s.v
	switch {
	case !s.hasView || v.Over:
		return s.th.T("werewolfui.chat.table")
	case v.LastBreath:
		return s.th.T("werewolfui.chat.last_breath")
	case !v.Alive:
		return s.th.T("werewolfui.chat.dead")
	case v.Phase == werewolf.PhaseWolves && len(v.Wolves) > 0:
		return s.th.T("werewolfui.chat.pack")
	case v.Phase.Night():
		return s.th.T("werewolfui.chat.asleep")
	}
	return s.th.T("werewolfui.chat.village")
}
