package tui

import "github.com/charmbracelet/bubbles/key"

// globalKeys are the session's own bindings; a game screen's keys come from
// its Keys(). One declaration serves both key handling and the help bar.
type globalKeys struct {
	Up, Down, Enter, Watch, New, Code, Rename, Help, Quit key.Binding
	Profile, Campaigns                                    key.Binding
	Talk, Lobby, Start, Bot, LeaveSeat                    key.Binding
	LogUp, LogDown                                        key.Binding
	Pick, First                                           key.Binding
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
		Pick:      key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "choose soldier")),
		First:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "begins")),
		LogUp:     key.NewBinding(key.WithKeys("pgup", "["), key.WithHelp("[/]", "scroll talk")),
		LogDown:   key.NewBinding(key.WithKeys("pgdown", "]"), key.WithHelp("]", "talk forward")),
	}
}
