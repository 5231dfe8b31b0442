package grizzledui

import (
	"runtime"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// hintSlots bounds the hints worked out at once on the whole server (each
// keeps a core busy for a tenth of a second): half the cores, at least one.
// A hint asked while they are all taken waits its turn for up to hintWait
// (a few hints ahead of it), and only then says the coach is busy.
var hintSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))

// hintWait is how long a hint waits for a slot: some ten hints' time.
var hintWait = time.Second

// Hint implements uikit.Hinter: the strong bot's search on this seat's own
// view (never the hidden cards), said in one line with the chances it
// expects and those of the next best choice.
func (s *Screen) Hint() tea.Cmd {
	th := s.th
	if !s.playing() || len(s.v.Legal) == 0 {
		return func() tea.Msg { return uikit.HintMsg(th.T("grizzledui.hint.not_now")) }
	}
	// A copy to work from off the session's loop: the screen moves on.
	snap := &words{th: th, v: s.v}
	snap.u.Seat, snap.u.Seats = s.u.Seat, s.u.Seats // a tile goes to whose neighbour
	if len(s.v.Legal) == 1 {
		return func() tea.Msg {
			return uikit.HintMsg(th.T("grizzledui.hint.forced", game.Text("Action", snap.coachLabel(snap.v.Legal[0]))))
		}
	}
	cfg := grizzbot.DefaultHint
	var levels []string
	for _, si := range s.u.Seats {
		levels = append(levels, si.Bot)
	}
	cfg.Team = grizzbot.TeamOf(levels) // how well the team plays is part of its chances
	return func() tea.Msg {
		if !takeHintSlot() {
			return uikit.HintMsg(th.T("grizzledui.hint.busy"))
		}
		defer func() { <-hintSlots }()
		// Seeded from the view, as the review of this decision is: the
		// review searches the same samples and never calls this move a
		// mistake.
		ad, ok := grizzbot.Hint(snap.v, cfg)
		if !ok {
			return uikit.HintMsg(th.T("grizzledui.hint.not_now"))
		}
		return uikit.HintMsg(snap.adviceLine(ad))
	}
}

// takeHintSlot takes a slot at once, or waits up to hintWait for one.
func takeHintSlot() bool {
	select {
	case hintSlots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(hintWait)
	defer t.Stop()
	select {
	case hintSlots <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}

// adviceLine says a hint: the move in the moves list's words, with the
// team's chances (or, the game all but lost, its standing) beside the
// next best move's.
func (s *words) adviceLine(ad grizzbot.Advice) string {
	th := s.th
	if ad.Hopeless {
		return th.T("grizzledui.hint.standing", game.Text("Action", s.coachLabel(ad.Best)), game.Num("P", pct(ad.BestP.P)),
			game.Num("S", pct(ad.BestS.P)), game.Num("Margin", margin(ad.BestS)), game.Text("Next", s.coachLabel(ad.Next)),
			game.Num("NextS", pct(ad.NextS.P)), game.Text("Why", whyClause(th, ad.Why)))
	}
	return th.T("grizzledui.hint.line", game.Text("Action", s.coachLabel(ad.Best)), game.Num("P", pct(ad.BestP.P)),
		game.Num("Margin", margin(ad.BestP)), game.Text("Next", s.coachLabel(ad.Next)), game.Num("NextP", pct(ad.NextP.P)))
}

var _ uikit.Hinter = (*Screen)(nil)
