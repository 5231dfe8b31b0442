package werewolfui

import (
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
)

// keyMap is the one declaration of the table's keys: Update matches on it
// and the help bar is drawn from it. sync enables a binding only when it
// leads to an action listed in SeatView.Legal (or, for Up/Down/Back/Card,
// when it changes something on the screen), and sets its help text to say
// what it does now ("enter vote Bob"). A disabled binding matches nothing.
//
// The session's own keys are left alone: t (talk), tab, ? (help), ctrl+c.
type keyMap struct {
	Up, Down key.Binding // move the cursor among the players the current choice can name
	Choose   key.Binding // enter: the phase's choice on the player under the cursor
	Poison   key.Binding // witch: poison the player under the cursor
	Heal     key.Binding // witch: heal tonight's victim
	Peek     key.Binding // little girl: open or close her eyes
	Take     key.Binding // thief: take middle card 1 or 2
	Pass     key.Binding // keep card, withdraw choice, done, lower rifle, abstain, keep eyes shut
	Ready    key.Binding // campaign and discussion: ready / not ready
	Stand    key.Binding // campaign: stand for sheriff / withdraw
	Back     key.Binding // cupid: forget the first lover picked
	Card     key.Binding // asleep: turn your face-down card up or down
	LogUp    key.Binding // scroll the log back
	LogDown  key.Binding // scroll the log forward
	Pack     key.Binding // wolves: the whole pack channel in the log panel, or back
	Leave    key.Binding // leave the table for the lobby (the seat is kept)
}

// defaultKeys are the bindings with their help in the session's language,
// built once per language (uikit.PerLang).
func defaultKeys(th *uikit.Theme) keyMap { return keysByLang.Get(th) }

var keysByLang = uikit.PerLang[keyMap]{Make: func(th *uikit.Theme) keyMap {
	return keyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", th.T("werewolfui.key.player"))),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", th.T("werewolfui.key.next_player"))),
		Choose:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", th.T("werewolfui.key.choose"))),
		Poison:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", th.T("werewolfui.key.poison"))),
		Heal:    key.NewBinding(key.WithKeys("h"), key.WithHelp("h", th.T("werewolfui.key.heal"))),
		Peek:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", th.T("werewolfui.key.peek"))),
		Take:    key.NewBinding(key.WithKeys("1", "2"), key.WithHelp("1/2", th.T("werewolfui.key.take_card"))),
		Pass:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", th.T("werewolfui.key.pass"))),
		Ready:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", th.T("werewolfui.key.ready"))),
		Stand:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", th.T("werewolfui.key.stand_short"))),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", th.T("werewolfui.key.undo_pick"))),
		Card:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", th.T("werewolfui.key.look_card"))),
		LogUp:   key.NewBinding(key.WithKeys("pgup", "["), key.WithHelp("[/]", th.T("werewolfui.key.log_up"))),
		LogDown: key.NewBinding(key.WithKeys("pgdown", "]"), key.WithHelp("]", th.T("werewolfui.key.log_down"))),
		Pack:    key.NewBinding(key.WithKeys("P"), key.WithHelp("P", th.T("werewolfui.key.pack"))),
		Leave:   key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", th.T("werewolfui.key.leave"))),
	}
}}

// ShortHelp is the help bar, most useful first; bubbles/help drops the
// disabled bindings. Down and LogDown are left out (their partners' help
// names both directions).
func (k keyMap) ShortHelp() []key.Binding { return k.AppendShortHelp(nil) }

// AppendShortHelp adds ShortHelp's bindings to dst (uikit.ShortHelpAppender).
func (k *keyMap) AppendShortHelp(dst []key.Binding) []key.Binding {
	return append(dst, k.Choose, k.Poison, k.Heal, k.Peek, k.Take, k.Pass, k.Ready, k.Stand,
		k.Up, k.Back, k.Card, k.Leave)
}

// FullHelp groups the bindings for the full help page.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Choose, k.Back},
		{k.Poison, k.Heal, k.Peek, k.Take, k.Pass},
		{k.Ready, k.Stand, k.Card},
		{k.LogUp, k.LogDown, k.Pack, k.Leave},
	}
}

// all lists every binding, for switching them off together.
func (k *keyMap) all() []*key.Binding {
	return []*key.Binding{&k.Up, &k.Down, &k.Choose, &k.Poison, &k.Heal, &k.Peek, &k.Take, &k.Pass,
		&k.Ready, &k.Stand, &k.Back, &k.Card, &k.LogUp, &k.LogDown, &k.Pack, &k.Leave}
}
