package tui

// Notices (package notice) on the full screen: the newest shows as a
// banner above the help bar on every page, the lobby, a table or another
// page, with the terminal's bell when it comes; A acts on it (joins the
// table an invitation names, accepts a friend). The banner stays
// bannerFor, or until the notice lapses or is acted on; the notice itself
// stays live until it lapses (the friends page lists invitations).

import (
	"time"

	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/frames"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// bannerFor is how long a notice shows as the banner: long enough to
// finish a move and answer, short enough not to cover a game for good.
const bannerFor = 45 * time.Second

// noticesMsg: notices came for the player (the pump took them from the
// session's inbox).
type noticesMsg []notice.Notice

// bannerDown takes the banner of notice id down, if it still shows.
type bannerDown string

// sessionNotices is what a session keeps of its notices.
type sessionNotices struct {
	list   notice.List
	banner notice.Notice // on screen until bannerTo (zero: no banner)
	to     time.Time
	bell   bool // ring the terminal's bell with the next frame
	// desk is a desktop notification for the next frame (OSC 0: none).
	desk frames.DesktopNote
}

// Bell reports whether the terminal's bell is due, and forgets it
// (frames.Ringer).
func (m *root) Bell() bool {
	b := m.notes.bell
	m.notes.bell = false
	return b
}

// Desktop reports the desktop notification due, and forgets it
// (frames.Notifier).
func (m *root) Desktop() (frames.DesktopNote, bool) {
	d := m.notes.desk
	m.notes.desk = frames.DesktopNote{}
	return d, d.OSC != 0
}

// desktopFor has the next frame carry n as a desktop notification, if the
// player turned those on (the session's copy of their choice: a change
// made from another terminal comes as a notice, see onNotices).
func (m *root) desktopFor(n notice.Notice) {
	if !n.Desktop || n.Gone || m.app.Notifications == nil || m.sess.Player.Guest {
		return
	}
	osc := DesktopOSC(m.sess.Desktop)
	if osc == 0 {
		return
	}
	title := m.app.ServerName
	if title == "" {
		title = "Bivouac"
	}
	m.notes.desk = frames.DesktopNote{OSC: osc, Title: title, Body: m.th.Msg(n.Text)}
}

// DesktopOSC is the sequence a stored desktop choice names ("9", "777"),
// or 0 for none.
func DesktopOSC(choice string) int {
	switch choice {
	case "9":
		return frames.OSC9
	case "777":
		return frames.OSC777
	}
	return 0
}

// onNotices takes notices that came: a setting the player changed is
// kept, unseen; those of players the session ignores or blocks are
// dropped unseen; a new one rings and shows.
func (m *root) onNotices(ns []notice.Notice) tea.Cmd {
	m.app.LoadLists(m.sess.Player, &m.lists)
	kept := ns[:0:0]
	for _, n := range ns {
		if n.Setting() {
			if n.Act.Verb == notice.VerbDesktop {
				m.sess.Desktop = n.Act.Arg
			}
			continue
		}
		if n.From != "" && (m.lists.Has(IgnoreList, n.From) || m.lists.Has(BlockList, n.From)) {
			continue
		}
		kept = append(kept, n)
	}
	now := time.Now()
	rang := m.notes.list.Add(kept, now)
	if m.notes.banner.ID != "" && !m.noticeLive(m.notes.banner.ID, now) {
		m.setBanner(notice.Notice{}, now) // withdrawn
	}
	var cmd tea.Cmd
	if n, ok := m.notes.list.Newest(now); ok && rang {
		m.notes.bell = true
		cmd = m.setBanner(n, now)
		m.desktopFor(n)
	}
	return cmd
}

// noticeLive reports whether notice id is still live.
func (m *root) noticeLive(id string, now time.Time) bool {
	for _, n := range m.notes.list.Live(now) {
		if n.ID == id {
			return true
		}
	}
	return false
}

// setBanner shows n as the banner (zero: none) and has it taken down in
// time; the page is sized again around it.
func (m *root) setBanner(n notice.Notice, now time.Time) tea.Cmd {
	had := m.notes.banner.ID != ""
	m.notes.banner = n
	if had != (n.ID != "") {
		m.sizeScreen()
	}
	if n.ID == "" {
		return nil
	}
	m.notes.to = now.Add(bannerFor)
	if !n.Until.IsZero() && n.Until.Before(m.notes.to) {
		m.notes.to = n.Until
	}
	id := n.ID
	return tea.Tick(m.notes.to.Sub(now), func(time.Time) tea.Msg { return bannerDown(id) })
}

// bannerLines is how many lines the banner takes from the page (0 or
// 1). A game's screen keeps every line it was given (at 80×24 it has none
// to spare): the banner takes the help bar's place instead (Lines).
func (m *root) bannerLines() int {
	if _, game := m.page.(resizer); game || m.notes.banner.ID == "" {
		return 0
	}
	return 1
}

// bannerLine is the banner as drawn: the notice and its key.
func (m *root) bannerLine() string {
	n := m.notes.banner
	if n.ID == "" {
		return ""
	}
	text := "✉ " + uikit.Clean(m.th.Msg(n.Text))
	if label := actLabel(n.Act); label != "" {
		text += " · A: " + m.th.T(label)
	}
	return m.th.Notice.Render(" " + m.th.Trunc(text, m.width-2) + " ")
}

// actLabel is the catalog key of what a notice's key does ("": the
// session cannot act on it).
func actLabel(a notice.Act) string {
	switch a.Verb {
	case notice.VerbJoin:
		return "ui.notices.act.join"
	case notice.VerbWatch:
		return "ui.notices.act.watch"
	case notice.VerbFriend:
		return "ui.notices.act.friend"
	}
	return ""
}

// NoticeActs reports whether a session can act on a notice's act (plain
// mode's "accept").
func NoticeActs(a notice.Act) bool { return actLabel(a) != "" }

// actOnBanner does what the banner's key does, and takes it down.
func (m *root) actOnBanner() tea.Cmd {
	n := m.notes.banner
	m.notes.list.Remove(n.ID)
	m.setBanner(notice.Notice{}, time.Now())
	return m.doNotice(n)
}

// doNotice does what notice n's key does.
func (m *root) doNotice(n notice.Notice) tea.Cmd {
	switch n.Act.Verb {
	case notice.VerbJoin, notice.VerbWatch:
		code, watch := n.Act.Arg, n.Act.Verb == notice.VerbWatch
		return func() tea.Msg { return joinMsg{code: code, watch: watch} }
	case notice.VerbFriend:
		if err := m.app.AcceptFriend(m.sess.Player, n.Act.Arg); err != nil {
			m.notice = m.th.Err(err)
		} else {
			m.notice = m.th.T("ui.friends.accepted")
		}
	}
	return nil
}

// AcceptFriend accepts the friend request of player id (a notice's key,
// on a screen or in plain mode).
func (a *App) AcceptFriend(p table.Player, id string) error {
	if a.Friends == nil {
		return errNoFriends
	}
	return a.Friends.Accept(p, Person{ID: id})
}

// withBanner puts the banner over the line above the bottom of lines (a
// page drawn as a whole: the rules, the help, the players at the table).
func (m *root) withBanner(lines []string) []string {
	b := m.bannerLine()
	if b == "" || len(lines) < 2 {
		return lines
	}
	lines[len(lines)-2] = b
	return lines
}
