package tui

import (
	"github.com/charmbracelet/bubbles/key"

	"bivouac/game"
	"bivouac/i18n"
	"bivouac/table"
	"bivouac/tui/uikit"
)

// AddressKeeper is the part of Records that keeps how a keyed player
// asked to be addressed (i18n.Address). Records without it offer no
// choice: the game then uses wording that needs no gender.
type AddressKeeper interface {
	SetAddress(p table.Player, a i18n.Address) error
}

var errNoAddress = game.NewError("ui.address.err.none")

// setAddress keeps p's choice. Guests keep nothing, so they are told so
// (their session still uses the choice, see root.address).
func (a *App) setAddress(p table.Player, addr i18n.Address) error {
	rec, err := a.recordsFor(p)
	if err != nil {
		return err
	}
	k, ok := rec.(AddressKeeper)
	if !ok {
		return errNoAddress
	}
	return k.SetAddress(p, addr)
}

// addressLine is the profile's line saying how the game addresses the
// player.
func addressLine(th *uikit.Theme, a i18n.Address) string {
	return th.T("ui.address.line", game.Text("Address", th.T(a.Key())))
}

// addressKey is the profile page's key cycling the choice.
func addressKey(th *uikit.Theme) key.Binding {
	return key.NewBinding(key.WithKeys("a"), key.WithHelp("a", th.T("ui.address.key")))
}

// cycleAddress moves the profile page's choice to the next one and keeps
// it; a refusal is said and changes nothing.
func (p *profilePage) cycleAddress(m *root) {
	next := p.profile.Address.Next()
	if err := m.app.setAddress(m.sess.Player, next); err != nil {
		m.notice = m.th.Err(err)
		return
	}
	p.profile.Address = next
	m.notice = m.th.T("ui.address.now", game.Text("Address", m.th.T(next.Key())))
}

// addressCommand is plain mode's "address f|m|n": with no word it says
// the choice and how to change it.
func (p *plain) addressCommand(rest string) {
	a, ok := i18n.ParseAddress(rest)
	if !ok {
		p.say(p.th.T("plain.address.usage"))
		return
	}
	if err := p.app.setAddress(p.s.Player, a); err != nil {
		p.say(p.th.Err(err))
		return
	}
	p.say(p.th.T("ui.address.now", game.Text("Address", p.th.T(a.Key()))))
}
