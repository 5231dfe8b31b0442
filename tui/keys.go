package tui

import "github.com/charmbracelet/bubbles/key"

// globalKeys are the session's own bindings; a game screen's keys come from
// its Keys(). One declaration serves both key handling and the help bar.
type globalKeys struct {
	Up, Down, Enter, Watch, New, Code, Rename, Help, Quit key.Binding
	Profile, Campaigns                                    key.Binding
	Talk, Lobby, Start, Bot, LeaveSeat                    key.Binding
}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "select")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
		Enter:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "join")),
		Watch:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch")),
		New:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new table")),
		Code:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "join by code")),
		Rename:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rename")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Profile:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "profile")),
		Campaigns: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "campaigns")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Talk:      key.NewBinding(key.WithKeys("t", "tab"), key.WithHelp("t", "talk")),
		Lobby:     key.NewBinding(key.WithKeys("Q", "esc"), key.WithHelp("Q", "lobby (seat kept)")),
		Start:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "start")),
		Bot:       key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "bot on/off")),
		LeaveSeat: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "give up seat")),
	}
}

// lobbyHelp is the lobby's help bar, or (full) every lobby key.
func (m *root) lobbyHelp(full bool) []key.Binding {
	k := m.keys
	enter := k.Enter
	enter.SetEnabled(len(m.visibleRooms()) > 0)
	watch := k.Watch
	watch.SetEnabled(len(m.visibleRooms()) > 0)
	recs := m.app.Records != nil && !m.sess.Player.Guest
	profile, campaigns := k.Profile, k.Campaigns
	profile.SetEnabled(recs)
	campaigns.SetEnabled(recs)
	help, code := k.Help, k.Code
	help.SetHelp("?", "more")
	code.SetHelp("c", "code")
	// Into the session's scratch slice: this runs on every lobby frame.
	if full {
		m.helpKeys = append(m.helpKeys[:0], k.Up, enter, watch, k.New, k.Code, campaigns, profile, k.Rename, k.Help, k.Quit)
	} else {
		m.helpKeys = append(m.helpKeys[:0], k.Up, enter, k.New, code, campaigns, profile, help, k.Quit)
	}
	return m.helpKeys
}

// tableGlobal are the session's keys at a table, beside the screen's own.
func (m *root) tableGlobal() []key.Binding {
	k := m.keys
	talk := k.Talk
	talk.SetEnabled(m.upd.Seat >= 0)
	if m.screen == nil { // waiting room
		host := m.isHost()
		start, bot := k.Start, k.Bot
		start.SetEnabled(host)
		bot.SetEnabled(host && m.hasBots())
		return []key.Binding{k.Up, start, bot, talk, k.Lobby, k.LeaveSeat, k.Help}
	}
	giveUp := k.LeaveSeat
	giveUp.SetHelp("L", "bot takes my seat")
	giveUp.SetEnabled(m.canGiveSeat())
	return []key.Binding{talk, giveUp, k.Help}
}

func (m *root) tableHelp() []key.Binding {
	if m.screen == nil {
		return m.tableGlobal()
	}
	return append(m.screen.Keys().ShortHelp(), m.tableGlobal()...)
}
