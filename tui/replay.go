package tui

import (
	"errors"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// replayPage steps through a finished game as a spectator saw it, on the
// game's own screen. Esc goes back to the page it was opened from.
type replayPage struct {
	replay *Replay
	screen uikit.Screen
	step   int
	back   page // where esc goes
	bind   pagesKeys
	muted  []game.Seat // seats of players this session ignores: their chat is not shown
}

// ErrNoSuchGame is the one answer of Records.Replay and Reviews.Review to
// a code that names no finished game, whether it names nothing or a table
// still open: a wrong guess (App.Guesses), as a wrong table code is.
var ErrNoSuchGame = errors.New("no finished game with that code")

// LookUpGame runs a replay's or a review's look-up of code under addr's
// wrong-code budget: refused, in words, while the address must wait; a
// miss counts against it.
func (a *App) LookUpGame(th *uikit.Theme, addr string, look func() error) (said string, ok bool) {
	if wait := a.CodeWait(th, addr); wait != "" {
		return wait, false
	}
	err := look()
	if errors.Is(err, ErrNoSuchGame) {
		a.WrongCode(addr)
	}
	if err != nil {
		return th.Err(err), false
	}
	return "", true
}

func openReplay(m *root, code string, back page) {
	if m.app.Records == nil {
		m.notice = m.th.T("ui.err.no_records")
		return
	}
	var r Replay
	if said, ok := m.app.LookUpGame(m.th, m.sess.Addr, func() (err error) {
		r, err = m.app.Records.Replay(code)
		return err
	}); !ok {
		m.notice = said
		return
	}
	r.Seat = game.Spectator
	showReplay(m, r, back)
}

// openReplayAt opens the replay of the game code from the reader's own
// seat (Records.ReplayAs: their hand as it was, nobody else's) at the
// step after actions actions: a decision the review names, as it was.
func openReplayAt(m *root, code string, actions int, back page) {
	if m.app.Records == nil {
		m.notice = m.th.T("ui.err.no_records")
		return
	}
	var r Replay
	if said, ok := m.app.LookUpGame(m.th, m.sess.Addr, func() (err error) {
		r, err = m.app.Records.ReplayAs(code, m.sess.Player)
		return err
	}); !ok {
		m.notice = said
		return
	}
	if p := showReplay(m, r, back); p != nil {
		p.step = r.StepAfter(actions)
		p.showStep()
	}
}

// showReplay puts replay r on screen at its first step.
func showReplay(m *root, r Replay, back page) *replayPage {
	g, ok := m.app.Games.Lookup(r.Game)
	if !ok || g.Screen == nil {
		m.notice = m.th.T("ui.err.cannot_show", game.Text("Game", r.Game))
		return nil
	}
	// Presence belongs to a live table: a replay marks nobody away
	// (every seat was drawn "(away)", in German "(weg)").
	for i := range r.Seats {
		r.Seats[i].Connected = true
	}
	p := &replayPage{replay: &r, screen: g.Screen(m.th), back: back, bind: newPagesKeys(m.th)}
	m.app.LoadLists(m.sess.Player, &m.lists)
	p.muted = m.lists.MutedSeats(&table.Update{Seats: r.Seats})
	if mu := uikit.AbilitiesOf(p.screen).Muting; mu != nil {
		mu.Mute(p.muted)
	}
	m.show(p)
	m.notice = ""
	p.showStep()
	return p
}

func (p *replayPage) resize(w, h int) { p.screen.SetSize(w, h) }

func (p *replayPage) showStep() {
	u := WithoutMuted(p.replay.UpdateAt(p.step), p.muted)
	p.screen.Update(uikit.UpdateMsg{Update: &u})
}

func (p *replayPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	pk, n := p.bind, len(p.replay.Steps)
	switch {
	case key.Matches(k, pk.Back):
		if p.back == nil {
			p.back = m.lobby
		}
		m.show(p.back)
		return nil
	case key.Matches(k, pk.Step):
		p.step = min(n-1, p.step+1)
	case key.Matches(k, pk.Prev):
		p.step = max(0, p.step-1)
	case key.Matches(k, pk.First):
		if k.String() == "G" || k.String() == "end" {
			p.step = n - 1
		} else {
			p.step = 0
		}
	case key.Matches(k, pk.Last):
		p.step = n - 1
	default:
		return nil
	}
	p.showStep()
	return nil
}

func (p *replayPage) view(m *root) string { return p.screen.View() }

func (p *replayPage) help(m *root) []key.Binding {
	return []key.Binding{p.bind.Prev, p.bind.Step, p.bind.First, p.bind.Back, m.keys.Help}
}

// bar is the replay's help bar: where we are, then the keys.
func (p *replayPage) bar(m *root) string {
	status := m.th.Accent.Render(m.th.T("ui.replay.status", game.Text("Code", p.replay.Code), game.Num("N", p.step), game.Num("Of", len(p.replay.Steps)-1)))
	sep := m.th.HelpSep.Render(" • ")
	return status + sep + m.th.ShortHelp(max(0, m.width-uikit.Width(status+sep)), p.help(m)) // whole keys in the room left
}

func (p *replayPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }
