package tui

import (
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
)

// globalKeys are the session's own bindings; a game screen's keys come from
// its Keys(). One declaration serves both key handling and the help bar.
type globalKeys struct {
	Up, Down, Enter, Watch, New, Code, Rename, Help, Quit key.Binding
	Lang                                                  key.Binding
	Profile, Campaigns                                    key.Binding
	Talk, Lobby, Start, Bot, LeaveSeat                    key.Binding
	LogUp, LogDown                                        key.Binding
	Pick, First                                           key.Binding
	Rules, Learn, Review, Hint                            key.Binding
	People, Remove                                        key.Binding // the players at the table (peoplepick.go)
	Answer                                                key.Binding // act on the notice's banner (notices.go)
	Friends                                               key.Binding // the friends page (friends.go)
}

// newGlobalKeys are the session's bindings with help in its language,
// built once per language (uikit.PerLang).
func newGlobalKeys(th *uikit.Theme) globalKeys { return globalKeysByLang.Get(th) }

var globalKeysByLang = uikit.PerLang[globalKeys]{Make: func(th *uikit.Theme) globalKeys {
	return globalKeys{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", th.T("ui.key.select"))),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", th.T("ui.key.down"))),
		Enter:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", th.T("ui.key.join"))),
		Watch:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", th.T("ui.key.watch"))),
		New:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", th.T("ui.key.new_table"))),
		Code:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", th.T("ui.key.join_code"))),
		Rename:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", th.T("ui.key.rename"))),
		Lang:      key.NewBinding(key.WithKeys("l"), key.WithHelp("l", th.T("ui.lang.name"))),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", th.T("ui.key.help"))),
		Profile:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", th.T("ui.key.profile"))),
		Campaigns: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", th.T("ui.key.campaigns"))),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", th.T("ui.key.quit"))),
		Talk:      key.NewBinding(key.WithKeys("t", "tab"), key.WithHelp("t", th.T("ui.key.talk"))),
		Lobby:     key.NewBinding(key.WithKeys("Q", "esc"), key.WithHelp("Q", th.T("ui.key.lobby"))),
		Start:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", th.T("ui.key.start"))),
		Bot:       key.NewBinding(key.WithKeys("b"), key.WithHelp("b", th.T("ui.key.bot"))),
		LeaveSeat: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", th.T("ui.key.give_up_seat"))),
		Pick:      key.NewBinding(key.WithKeys("g"), key.WithHelp("g", th.T("ui.key.pick"))),
		First:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", th.T("ui.key.first"))),
		LogUp:     key.NewBinding(key.WithKeys("pgup", "["), key.WithHelp("[/]", th.T("ui.key.talk_up"))),
		LogDown:   key.NewBinding(key.WithKeys("pgdown", "]"), key.WithHelp("]", th.T("ui.key.talk_down"))),
		Rules:     key.NewBinding(key.WithKeys("R"), key.WithHelp("R", th.T("ui.key.rules"))),
		Learn:     key.NewBinding(key.WithKeys("g"), key.WithHelp("g", th.T("ui.key.learn"))),
		Review:    key.NewBinding(key.WithKeys("v"), key.WithHelp("v", th.T("ui.key.review"))),
		Hint:      key.NewBinding(key.WithKeys("h"), key.WithHelp("h", th.T("ui.key.hint"))),
		People:    key.NewBinding(key.WithKeys("I"), key.WithHelp("I", th.T("ui.people.key.people"))),
		Remove:    key.NewBinding(key.WithKeys("X"), key.WithHelp("X", th.T("ui.people.key.remove"))),
		Answer:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", th.T("ui.notices.key"))),
		Friends:   key.NewBinding(key.WithKeys("F"), key.WithHelp("F", th.T("ui.friends.key.friends"))),
	}
}}
