package tui

import (
	"errors"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// The pages of what Bivouac remembers: the profile (here), the campaigns
// (campaigns.go) and replays (replay.go).

type pagesKeys struct {
	Up, Down, Open, Back, New, Join, Play, Step, Prev, First, Last key.Binding
}

func newPagesKeys(th *uikit.Theme) pagesKeys { return pagesKeysByLang.Get(th) }

var pagesKeysByLang = uikit.PerLang[pagesKeys]{Make: func(th *uikit.Theme) pagesKeys {
	return pagesKeys{
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", th.T("ui.key.select"))),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", th.T("ui.key.down"))),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", th.T("ui.key.open"))),
		Back:  key.NewBinding(key.WithKeys("esc", "Q", "q"), key.WithHelp("esc", th.T("ui.key.back"))),
		New:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", th.T("ui.key.new_campaign"))),
		Join:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", th.T("ui.key.join_code"))),
		Play:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", th.T("ui.key.play_next"))),
		Step:  key.NewBinding(key.WithKeys("right", "l", " "), key.WithHelp("→", th.T("ui.key.next"))),
		Prev:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", th.T("ui.key.previous"))),
		First: key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/G", th.T("ui.key.start_end"))),
		Last:  key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", th.T("ui.key.end"))),
	}
}}

// moveCursor moves a list's cursor for ↑/↓ and reports whether k was one.
func (k pagesKeys) moveCursor(msg tea.KeyMsg, cur *int, n int) bool {
	switch {
	case key.Matches(msg, k.Up):
		*cur = max(0, *cur-1)
	case key.Matches(msg, k.Down):
		*cur = min(max(0, n-1), *cur+1)
	default:
		return false
	}
	return true
}

var (
	errNoRecords    = game.NewError("ui.err.no_records")
	errGuestRecords = game.NewError("ui.err.guest_records")
)

// records is the App's Records, or an error saying why there are none.
func (m *root) records() (Records, error) { return m.app.RecordsFor(m.sess.Player) }

// RecordsFor is the App's Records for p: none for a guest, who keeps nothing.
func (a *App) RecordsFor(p table.Player) (Records, error) {
	if a.Records == nil {
		return nil, errNoRecords
	}
	if p.Guest {
		return nil, errGuestRecords
	}
	return a.Records, nil
}

// profilePage is the player's profile: stats and recent games, each of
// which can be replayed.
type profilePage struct {
	profile   Profile
	games     []GameRecord
	campaigns []Campaign
	cur       int
	bind      pagesKeys
}

func openProfile(m *root) {
	rec, err := m.records()
	if err != nil {
		m.notice = m.th.Err(err)
		return
	}
	p, err := rec.Profile(m.sess.Player.ID)
	var said *game.Error
	if errors.As(err, &said) { // the server is degraded, say: not "no profile yet"
		m.notice = m.th.T("ui.err.read_profile", game.Text("Err", m.th.Err(err)))
		return
	}
	if err != nil { // none yet (as plain mode's profile): the page still offers its settings
		p = Profile{Name: m.sess.Player.Name, ID: m.sess.Player.ID}
	}
	games, err := rec.Finished(m.sess.Player.ID, 12)
	notice := ""
	if err != nil {
		notice = m.th.T("ui.err.read_games", game.Text("Err", m.th.Err(err)))
	}
	campaigns, err := rec.Campaigns(m.sess.Player.ID)
	if err != nil {
		notice = m.th.T("ui.err.read_campaigns", game.Text("Err", m.th.Err(err)))
	}
	m.show(&profilePage{profile: p, games: games, campaigns: campaigns, bind: newPagesKeys(m.th)})
	m.notice = notice
}

func (p *profilePage) key(m *root, k tea.KeyMsg) tea.Cmd {
	pk := p.bind
	if pk.moveCursor(k, &p.cur, len(p.games)) {
		return nil
	}
	switch {
	case key.Matches(k, pk.Back):
		m.show(m.lobby)
	case key.Matches(k, pk.Open) && p.cur < len(p.games):
		openReplay(m, p.games[p.cur].Code, p)
	case key.Matches(k, m.keys.People):
		openLists(m, p)
	case key.Matches(k, addressKey(m.th)):
		p.cycleGender(m)
	case key.Matches(k, notifyKey()) && m.app.Notifications != nil:
		openNotify(m, p)
	case key.Matches(k, m.keys.Review) && p.reviewable(m):
		return openReview(m, p.games[p.cur].Code, p)
	}
	return nil
}

func (p *profilePage) help(m *root) []key.Binding {
	open := p.bind.Open
	open.SetHelp("enter", m.th.T("ui.key.replay"))
	review := m.keys.Review
	review.SetEnabled(p.reviewable(m))
	people := m.keys.People
	people.SetHelp("I", m.th.T("ui.people.key.lists"))
	return []key.Binding{p.bind.Up, open, review, people, addressKey(m.th), p.bind.Back, m.keys.Help}
}

// reviewable: the game under the cursor has a coach, and the server runs it.
func (p *profilePage) reviewable(m *root) bool {
	return m.app.Reviews != nil && p.cur < len(p.games) && m.app.Games.Reviewer(p.games[p.cur].Game) != nil
}

func (p *profilePage) bar(m *root) string           { return m.shortHelp(p.help(m)) }
func (p *profilePage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func (pp *profilePage) view(m *root) string {
	th, p := m.th, pp.profile
	var b strings.Builder
	title := th.Title.Render(th.T("ui.profile.title", game.Text("Player", p.Name)))
	if p.Veteran {
		title += "  " + th.Good.Render("★ "+th.T("ui.profile.veteran_since", game.Text("Date", p.VeteranSince.Format(dateLayout)), game.Person("Player", p.Name, p.Gender)))
	}
	b.WriteString(title + "\n" + m.rule() + "\n")
	if p.FirstSeen.IsZero() {
		b.WriteString(th.Muted.Render(th.T("cmd.profile.none")) + "\n\n")
	} else {
		b.WriteString(th.Muted.Render(th.T("ui.profile.key_seen", game.Text("Key", shortID(th, p.ID)),
			game.Text("First", p.FirstSeen.Format(dateLayout)), game.Text("Last", p.LastSeen.Format(DateTimeLayout)))) + "\n\n")
	}
	b.WriteString(th.Header.Render(th.T("ui.profile.games")) + "\n")
	if len(p.Stats) == 0 {
		b.WriteString(th.Muted.Render("  "+th.T("ui.profile.no_games")) + "\n")
	}
	// Columns as wide as their longest entry, so no game's name is cut
	// where the window has room ("Оборотни из деревни М…" at 22 cells);
	// a game without variants leaves its column out.
	titles, variants := make([]string, len(p.Stats)), make([]string, len(p.Stats))
	titleW, variantW := 0, 0
	for i, s := range p.Stats {
		titles[i] = m.app.Games.Title(th, s.Game)
		if s.Variant != "" && s.Variant != "-" {
			variants[i] = m.app.Games.VariantName(th, s.Game, s.Variant)
		}
		titleW, variantW = max(titleW, ansi.StringWidth(titles[i])), max(variantW, ansi.StringWidth(variants[i]))
	}
	for i, s := range p.Stats {
		rate := 0
		if s.Played > 0 {
			rate = 100 * s.Won / s.Played
		}
		line := "  " + pad(th, titles[i], titleW) + " "
		if variantW > 0 {
			line += pad(th, variants[i], variantW) + " "
		}
		line += th.T("ui.profile.stat_line", game.Count(s.Players), game.Num("Played", s.Played), game.Num("Won", s.Won), game.Num("Rate", rate))
		b.WriteString(th.Trunc(line, m.width) + "\n")
	}
	if len(pp.campaigns) > 0 {
		// Each campaign as the campaigns page lists it: its pile for the
		// next game, wins and losses, ★ once won at 30.
		b.WriteString("\n" + th.Header.Render(th.T("ui.campaign.list_title")) + "\n")
		for _, c := range pp.campaigns {
			b.WriteString(campaignLine(m, "  ", c) + "\n")
		}
		b.WriteString("\n")
	}
	m.app.LoadLists(m.sess.Player, &m.lists)
	b.WriteString(th.Muted.Render(th.T("ui.people.profile_line", game.Num("Ignored", len(m.lists.Ignored)), game.Num("Blocked", len(m.lists.Blocked)))) + "\n")
	b.WriteString(th.Muted.Render(th.Trunc(AddressLine(th, m.sess.Player.Gender)+" "+th.T("ui.address.change"), m.width)) + "\n")
	if m.app.Notifications != nil {
		b.WriteString(th.Muted.Render(th.Trunc(th.T("ui.profile.notify"), m.width)) + "\n")
	}
	b.WriteString("\n" + th.Header.Render(th.T("ui.profile.recent")) + th.Muted.Render("  "+th.T("ui.profile.enter_replays")) + "\n")
	if len(pp.games) == 0 {
		b.WriteString(th.Muted.Render("  "+th.T("ui.none_yet")) + "\n")
	}
	resultW := max(ansi.StringWidth(th.T("ui.won")), ansi.StringWidth(th.T("ui.lost"))) // "поражение" was cut at 6
	for i, g := range pp.games {
		mark := "  "
		if i == pp.cur {
			mark = "▸ "
		}
		res := th.Danger.Render(pad(th, th.T("ui.lost"), resultW))
		if g.Won {
			res = th.Good.Render(pad(th, th.T("ui.won"), resultW))
		}
		line := mark + g.When.Format(DateTimeLayout) + "  " + pad(th, g.Code, 5) + " " + res + "  " + uikit.Clean(th.Msg(g.Title))
		b.WriteString(th.Trunc(line, m.width) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// shortID abbreviates a key fingerprint for display (20 cells).
func shortID(th *uikit.Theme, id string) string { return th.Trunc(id, 20) }
