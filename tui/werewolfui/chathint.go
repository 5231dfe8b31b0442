package werewolfui

import "bivouac/game/werewolf"

// ChatHint says where a chat line goes now, as Game.Say routes it: the
// dead talk among themselves (not while a last-breath choice is pending:
// the game refuses that line), a werewolf whispers to the pack during the
// wolves' step, the village talks by day, and nobody else talks at night.
func (s *Screen) ChatHint() string {
	v := s.v
	switch {
	case !s.hasView || v.Over:
		return "say something to the table"
	case v.LastBreath:
		return "with your last breath you cannot talk: choose, then join the dead"
	case !v.Alive:
		return "talk to the other dead (the living never see it)"
	case v.Phase == werewolf.PhaseWolves && len(v.Wolves) > 0:
		return "whisper to the pack"
	case v.Phase.Night():
		return "the village sleeps: nobody hears you now"
	}
	return "say something to the village"
}
