package tui

import (
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// reviewPage is the coach's review of a finished game: its progress while
// the coach works (off the table, on the server), then the chart, the
// summaries and the costliest decisions. ↑/↓ move a cursor over its lines
// (the page scrolls with it); enter on a line that names a decision opens
// the replay there, from the reader's own seat. Esc goes back to the page
// it was opened from.
type reviewPage struct {
	code   string
	job    ReviewJob
	review *Review // once done
	err    error
	top    int   // first line shown
	cur    int   // the cursor's line
	at     []int // each line's moment (uikit.Stepped), as last drawn
	back   page
	bind   pagesKeys
}

// reviewTick asks the review page on screen to look at its job again.
type reviewTick struct{ page *reviewPage }

// reviewEvery is how often the page redraws the coach's progress.
const reviewEvery = 250 * time.Millisecond

func openReview(m *root, code string, back page) tea.Cmd {
	if m.app.Reviews == nil {
		m.notice = m.th.T("ui.err.no_coach")
		return nil
	}
	var job ReviewJob
	if said, ok := m.app.LookUpGame(m.th, m.sess.Addr, func() (err error) {
		job, err = m.app.Reviews.Review(code, m.sess.Player)
		return err
	}); !ok {
		m.notice = said
		return nil
	}
	p := &reviewPage{code: strings.ToUpper(code), job: job, back: back, bind: newPagesKeys(m.th)}
	m.show(p)
	m.notice = ""
	return p.tick(m)
}

// tick takes the result once it is there, else waits a little more; it
// stops when the page is left.
func (p *reviewPage) tick(m *root) tea.Cmd {
	if m.page != page(p) || p.review != nil || p.err != nil {
		return nil
	}
	select {
	case <-p.job.Done():
		r, err := p.job.Result()
		p.review, p.err = &r, err
		return nil
	default:
	}
	return tea.Tick(reviewEvery, func(time.Time) tea.Msg { return reviewTick{p} })
}

func (p *reviewPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	pk := p.bind
	switch {
	case key.Matches(k, pk.Back):
		if t, ok := p.back.(*tablePage); p.back == nil || ok && m.at != t {
			p.back = m.lobby // the table closed while the coach talked
		}
		m.show(p.back)
	case key.Matches(k, pk.Up):
		p.cur = max(0, p.cur-1)
	case key.Matches(k, pk.Down):
		p.cur++
	case key.Matches(k, pk.Prev), k.String() == "pgup":
		p.cur = max(0, p.cur-(m.height-4))
	case key.Matches(k, pk.Step), k.String() == "pgdown":
		p.cur += m.height - 4
	case key.Matches(k, pk.First):
		p.cur = 0
	case key.Matches(k, pk.Open):
		if at := p.moment(); at >= 0 {
			openReplayAt(m, p.code, at, p)
		}
	}
	return nil
}

// moment is the game's moment the cursor's line names, or -1.
func (p *reviewPage) moment() int {
	if p.cur < 0 || p.cur >= len(p.at) {
		return -1
	}
	return p.at[p.cur]
}

// lines is the review's body, or where the coach has got to.
func (p *reviewPage) lines(m *root) []string {
	th := m.th
	switch {
	case p.err != nil:
		return []string{th.Danger.Render(th.Err(p.err))}
	case p.review == nil:
		done, total := p.job.Progress()
		if total == 0 {
			return []string{th.Muted.Render(th.T("ui.review.queued"))}
		}
		width := max(10, min(40, m.width-20))
		filled := done * width / total
		bar := th.Accent.Render(strings.Repeat("█", filled)) + th.Muted.Render(strings.Repeat("░", width-filled))
		return []string{th.T("ui.review.progress", game.Num("Done", done), game.Count(total)), "", "  " + bar}
	}
	width := max(10, m.width-2) // the cursor's column
	if st, ok := p.review.Coach.(uikit.Stepped); ok {
		var lines []string
		lines, p.at = st.LinesAt(th, p.review.Seats, width, false)
		return lines
	}
	p.at = nil
	return p.review.Coach.Lines(th, p.review.Seats, width, false)
}

func (p *reviewPage) view(m *root) string {
	th := m.th
	title := th.T("ui.review.title", game.Text("Code", p.code))
	if p.review != nil {
		title += " · " + uikit.Clean(th.Msg(p.review.Title))
		if p.review.Coach.Won() {
			title += " · " + th.Good.Render(th.T("ui.won"))
		} else {
			title += " · " + th.Danger.Render(th.T("ui.lost"))
		}
	}
	var b strings.Builder
	b.WriteString(th.Trunc(th.Title.Render(title), m.width) + "\n" + m.rule() + "\n")
	body := p.lines(m)
	room := max(1, m.height-3) // title, rule, bottom bar
	p.cur = min(p.cur, max(0, len(body)-1))
	p.top = min(max(p.top, p.cur-room+1), p.cur, max(0, len(body)-room)) // the cursor in sight
	for i, l := range body[p.top:min(len(body), p.top+room)] {
		mark := "  "
		if p.top+i == p.cur && p.review != nil {
			mark = th.Accent.Render("›") + " "
		}
		b.WriteString(th.Trunc(mark+l, m.width) + "\n")
	}
	return b.String()
}

func (p *reviewPage) help(m *root) []key.Binding {
	scroll := p.bind.Up
	scroll.SetHelp("↑/↓", m.th.T("ui.key.scroll"))
	if p.moment() < 0 {
		return []key.Binding{scroll, p.bind.Back}
	}
	replay := p.bind.Open
	replay.SetHelp("enter", m.th.T("ui.key.replay"))
	return []key.Binding{scroll, replay, p.bind.Back}
}

func (p *reviewPage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *reviewPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }
