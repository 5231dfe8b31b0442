package tui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// How the game addresses a player: feminine, masculine or neutral
// (game.Gender). The session's Player carries it to every table it sits
// at, where sentences naming the player agree with it; the profile keeps
// a keyed player's choice, and a guest's lasts the session, as a guest's
// language does.

// GenderKeeper is the part of Records that keeps how a keyed player asked
// to be addressed.
type GenderKeeper interface {
	SetGender(p table.Player, g game.Gender) error
}

// genderKey is the catalog key naming g.
func genderKey(g game.Gender) string {
	if c := g.Code(); c != "" {
		return "ui.address." + c
	}
	return "ui.address.unset"
}

// nextGender is the choice after g for the profile's key: unset and
// neutral go to feminine. Once said, a choice is changed, never unsaid.
func nextGender(g game.Gender) game.Gender {
	switch g {
	case game.Feminine:
		return game.Masculine
	case game.Masculine:
		return game.Neutral
	}
	return game.Feminine
}

// AddressLine is the profile's line saying how the game addresses the
// player.
func AddressLine(th *uikit.Theme, g game.Gender) string {
	return th.T("ui.address.line", game.Text("Address", th.T(genderKey(g))))
}

// addressKey is the profile page's key cycling the choice.
func addressKey(th *uikit.Theme) key.Binding {
	return key.NewBinding(key.WithKeys("a"), key.WithHelp("a", th.T("ui.address.key")))
}

// SetGender makes g how the game addresses p from now on: kept in a keyed
// player's profile (a refusal is returned and changes nothing), for the
// session only for a guest. It returns what to tell the player. A change
// is a profile write, so it spends from l's pace, which the session's list
// changes spend from too (see changeBurst).
func (a *App) SetGender(th *uikit.Theme, p *table.Player, l *SessionLists, g game.Gender) (string, error) {
	pace := &l.pace
	if pace.burst == 0 {
		*pace = newChatLimit(changeBurst, changeEvery)
	}
	if wait := pace.take(time.Now()); wait > 0 {
		return th.T("ui.address.slow", game.Count(int((wait+time.Second-1)/time.Second))), nil
	}
	said := game.Text("Address", th.T(genderKey(g)))
	if p.Guest {
		p.Gender = g
		return th.T("ui.address.now_session", said), nil
	}
	rec, err := a.RecordsFor(*p)
	if err != nil {
		return "", err
	}
	if k, ok := rec.(GenderKeeper); ok {
		if err := k.SetGender(*p, g); err != nil {
			return "", err
		}
	}
	p.Gender = g
	return th.T("ui.address.now", said), nil
}

// cycleGender moves the profile page's choice to the next one.
func (pp *profilePage) cycleGender(m *root) {
	next := nextGender(m.sess.Player.Gender)
	said, err := m.app.SetGender(m.th, &m.sess.Player, &m.lists, next)
	if err != nil {
		m.notice = m.th.Err(err)
		return
	}
	pp.profile.Gender = m.sess.Player.Gender
	m.notice = said
}
