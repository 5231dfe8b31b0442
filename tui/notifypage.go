package tui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The profile's notifications page (N on the profile): a keyed player's
// webhook (masked), its format, quiet hours and zone, and desktop
// notifications, with keys to change them. Every change goes through
// Notifications.Do, what `ssh host notify …` runs: the same checks, the
// same words.

// Notifications are keyed players' notification settings, kept by the
// server (server/notifycmd.go).
type Notifications interface {
	// Settings are player id's settings as lines: that the server sends no
	// webhooks (if so), the webhook masked and its format, quiet hours and
	// their zone, desktop notifications.
	Settings(id string) ([]game.Msg, error)
	// Do runs `notify ARGS…` for player id (zone: the client's TZ, "" if
	// none; lang: the session's language, the webhook's messages' when it
	// sets one) and says what came of it; an error is what the player reads
	// (a *game.Error), or ErrNotifyUsage for words it does not take.
	// A desktop choice changed comes to every session of the player as a
	// notice (notice.VerbDesktop): sessions keep it (Session.Desktop).
	Do(id string, args []string, zone string, lang i18n.Lang) ([]game.Msg, error)
}

// ErrNotifyUsage: `notify` was given words it does not take.
var ErrNotifyUsage = game.NewError("notify.cmd.usage")

// maxWebhookTyped bounds the URL field (notify.MaxURL, and a format).
const maxWebhookTyped = 2048 + 16

type notifyPage struct {
	back    page
	lines   []game.Msg
	err     error
	testing bool
	bind    notifyKeys
}

type notifyKeys struct {
	URL, Test, Off, Desktop, Quiet, Zone key.Binding
}

func newNotifyKeys(m *root) notifyKeys {
	th := m.th
	return notifyKeys{
		URL:     key.NewBinding(key.WithKeys("u"), key.WithHelp("u", th.T("ui.notify.key.url"))),
		Test:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", th.T("ui.notify.key.test"))),
		Off:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", th.T("ui.notify.key.off"))),
		Desktop: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", th.T("ui.notify.key.desktop"))),
		Quiet:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", th.T("ui.notify.key.quiet"))),
		Zone:    key.NewBinding(key.WithKeys("z"), key.WithHelp("z", th.T("ui.notify.key.zone"))),
	}
}

// notifyKey opens the notifications page from the profile.
func notifyKey() key.Binding { return key.NewBinding(key.WithKeys("N")) }

func openNotify(m *root, back page) {
	if m.app.Notifications == nil || m.sess.Player.Guest {
		m.notice = m.th.T("notify.cmd.keyed_only")
		return
	}
	p := &notifyPage{back: back, bind: newNotifyKeys(m)}
	p.reload(m)
	m.show(p)
}

// reload reads the player's settings again.
func (p *notifyPage) reload(m *root) {
	p.lines, p.err = m.app.Notifications.Settings(m.sess.Player.ID)
}

// notifyDone: a change or a test the page asked for came back.
type notifyDone struct {
	args []string
	said []game.Msg
	err  error
}

// do runs `notify args…` away from the program's goroutine (a test waits
// for the webhook, up to 5 s); the page hears of it as notifyDone.
func (p *notifyPage) do(m *root, args ...string) tea.Cmd {
	n, id, zone, lang := m.app.Notifications, m.sess.Player.ID, m.sess.Zone, m.th.Lang()
	return func() tea.Msg {
		said, err := n.Do(id, args, zone, lang)
		return notifyDone{args, said, err}
	}
}

// done shows what came of a change, and the settings as they are now.
func (p *notifyPage) done(m *root, d notifyDone) {
	p.testing = false
	if d.err == nil && len(d.args) == 2 && d.args[0] == "desktop" {
		m.sess.Desktop = map[string]string{"9": "9", "777": "777"}[d.args[1]] // its notice may come after the next d
	}
	p.reload(m)
	switch {
	case errors.Is(d.err, ErrNotifyUsage):
		m.notice = m.th.T("notify.cmd.usage")
	case d.err != nil:
		m.notice = m.th.Err(d.err)
	default:
		said := make([]string, len(d.said))
		for i, s := range d.said {
			said[i] = m.th.Msg(s)
		}
		m.notice = strings.Join(said, " ")
	}
}

func (p *notifyPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	th, b := m.th, p.bind
	switch {
	case key.Matches(k, newPagesKeys(th).Back):
		m.notice = ""
		m.show(p.back)
	case p.testing:
		// one thing at a time: the test's answer comes within 5 s
	case key.Matches(k, b.URL):
		return m.openPrompt(th.T("ui.notify.prompt_url"), th.T("ui.notify.prompt_url_hint"), "", maxWebhookTyped, func(v string) tea.Cmd {
			f := strings.Fields(v)
			if len(f) == 0 {
				return nil
			}
			if !strings.Contains(f[0], "://") {
				m.notice = th.T("notify.err.not_url")
				return nil
			}
			return p.do(m, f...)
		})
	case key.Matches(k, b.Test):
		p.testing = true
		m.notice = th.T("ui.notify.testing")
		return p.do(m, "test")
	case key.Matches(k, b.Off):
		return p.do(m, "off")
	case key.Matches(k, b.Desktop):
		next := map[string]string{"": "9", "9": "777", "777": "off"}[m.sess.Desktop]
		return p.do(m, "desktop", next)
	case key.Matches(k, b.Quiet):
		return m.openPrompt(th.T("ui.notify.prompt_quiet"), th.T("ui.notify.prompt_quiet_hint"), "", 16, func(v string) tea.Cmd {
			return p.do(m, "quiet", strings.TrimSpace(v))
		})
	case key.Matches(k, b.Zone):
		return m.openPrompt(th.T("ui.notify.prompt_zone"), th.T("ui.notify.prompt_zone_hint"), "", 64, func(v string) tea.Cmd {
			return p.do(m, "zone", strings.TrimSpace(v))
		})
	}
	return nil
}

func (p *notifyPage) help(m *root) []key.Binding {
	b := p.bind
	return []key.Binding{b.URL, b.Test, b.Off, b.Desktop, b.Quiet, b.Zone, newPagesKeys(m.th).Back, m.keys.Help}
}

// bar has the keys the page does not show beside a setting (u, d, o and
// z are drawn before the lines they change): all eight were 90 to 100
// columns, and the bar lost esc and ? in every language.
func (p *notifyPage) bar(m *root) string {
	b := p.bind
	return m.shortHelp([]key.Binding{b.Test, b.Off, newPagesKeys(m.th).Back, m.keys.Help})
}

func (p *notifyPage) keys(m *root) [][]key.Binding { return [][]key.Binding{p.help(m)} }

func (p *notifyPage) view(m *root) string {
	th := m.th
	var b strings.Builder
	b.WriteString(th.Title.Render(th.T("ui.notify.title")) + "\n" + m.rule() + "\n")
	for _, l := range strings.Split(th.Wrapped("ui.notify.about", m.width), "\n") {
		b.WriteString(th.Muted.Render(l) + "\n")
	}
	b.WriteString("\n")
	if p.err != nil {
		b.WriteString(th.Danger.Render(th.Trunc(th.Err(p.err), m.width)) + "\n")
	}
	// Each setting with the key that changes it, wrapped under it.
	for _, l := range p.lines {
		k := map[string]string{"notify.cmd.url": "u", "notify.cmd.no_url": "u", "notify.cmd.quiet": "o z",
			"notify.cmd.no_quiet": "o z", "notify.cmd.desktop_on": "d", "notify.cmd.desktop_off": "d"}[l.Key]
		for i, w := range uikit.Wrap(th.Msg(l), m.width-5) {
			head := "     "
			if i == 0 && k != "" {
				head = th.Accent.Render(fmt.Sprintf("%-3s", k)) + "  "
			}
			b.WriteString(head + w + "\n")
		}
	}
	b.WriteString("\n")
	for _, l := range strings.Split(th.Wrapped("ui.notify.about_desktop", m.width), "\n") {
		b.WriteString(th.Muted.Render(l) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}
