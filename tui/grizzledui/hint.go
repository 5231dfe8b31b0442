package grizzledui

import (
	"runtime"

	"bivouac/game"
	"bivouac/game/grizzled/grizzbot"
	"bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// hintSlots bounds the hints worked out at once on the whole server (each
// keeps a core busy for a tenth of a second): half the cores, at least one.
// A hint asked while they are all taken is refused with a word, never queued.
var hintSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))

// Hint implements uikit.Hinter: the strong bot's search on this seat's own
// view (never the hidden cards), said in one line with the chances it
// expects and those of the next best choice.
func (s *Screen) Hint() tea.Cmd {
	th := s.th
	if !s.playing() || len(s.v.Legal) == 0 {
		return func() tea.Msg { return uikit.HintMsg(th.T("grizzledui.hint.not_now")) }
	}
	// A copy to work from off the session's loop: the screen moves on.
	snap := New(th)
	snap.v, snap.u.Seats = s.v, s.u.Seats
	if len(s.v.Legal) == 1 {
		return func() tea.Msg {
			return uikit.HintMsg(th.T("grizzledui.hint.forced", game.Text("Action", snap.coachLabel(snap.v.Legal[0]))))
		}
	}
	seed := uint64(s.v.Seq)<<8 | uint64(s.v.Seat&0xff)
	return func() tea.Msg {
		select {
		case hintSlots <- struct{}{}:
			defer func() { <-hintSlots }()
		default:
			return uikit.HintMsg(th.T("grizzledui.hint.busy"))
		}
		best, next, bp, np, ok := grizzbot.Hint(snap.v, grizzbot.DefaultHint, seed)
		if !ok {
			return uikit.HintMsg(th.T("grizzledui.hint.not_now"))
		}
		return uikit.HintMsg(th.T("grizzledui.hint.line", game.Text("Action", snap.coachLabel(best)), game.Num("P", pct(bp.P)),
			game.Num("Margin", margin(bp)), game.Text("Next", snap.coachLabel(next)), game.Num("NextP", pct(np.P))))
	}
}

var _ uikit.Hinter = (*Screen)(nil)
