package grizzledui

import (
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
)

// keyMap is the one declaration of the table's keys: Update matches on it
// and the help bar is drawn from it. sync enables only the bindings that
// lead to a move the engine lists in SeatView.Legal (plus navigation), so
// help never offers a refused move and a disabled key does nothing.
type keyMap struct {
	Prev, Next key.Binding // move the cursor (hand card, choice, intensity)
	Pick       key.Binding // 1–9: put the cursor on an item directly
	Play       key.Binding // play the selected hand card (A1)
	Charm      key.Binding // use the lucky charm: then choose an NML card (A2)
	Speech     key.Binding // make a speech: then choose a threat (A3)
	Withdraw   key.Binding // withdraw (A4)
	Confirm    key.Binding // take the selected choice; its help text says which
	Pass       key.Binding // answer a speech by discarding nothing
	Restore    key.Binding // support benefit: turn the charm back
	Decline    key.Binding // support benefit: take nothing
	Back       key.Binding // close a chooser opened with c or s
	Leave      key.Binding // leave the table for the lobby
	LogUp      key.Binding // scroll the log back
	LogDown    key.Binding // and forward again
}

// defaultKeys are the screen's bindings in th's language, built once per
// language (uikit.PerLang).
func defaultKeys(th *uikit.Theme) keyMap { return keysByLang.Get(th) }

var keysByLang = uikit.PerLang[keyMap]{Make: func(th *uikit.Theme) keyMap {
	return keyMap{
		Prev:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", th.T("grizzledui.key.select"))),
		Next:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", th.T("grizzledui.key.next"))),
		Pick:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", th.T("grizzledui.key.pick"))),
		Play:     key.NewBinding(key.WithKeys("p", "enter"), key.WithHelp("p", th.T("grizzledui.key.play"))),
		Charm:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", th.T("grizzledui.key.charm"))),
		Speech:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", th.T("grizzledui.key.speech"))),
		Withdraw: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", th.T("grizzledui.key.withdraw"))),
		Confirm:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", th.T("grizzledui.key.choose"))),
		Pass:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", th.T("grizzledui.key.pass"))),
		Restore:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", th.T("grizzledui.key.charm"))),
		Decline:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", th.T("grizzledui.key.decline"))),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", th.T("grizzledui.key.back"))),
		Leave:    key.NewBinding(key.WithKeys("Q"), key.WithHelp("Q", th.T("grizzledui.key.leave"))),
		LogUp:    key.NewBinding(key.WithKeys("pgup", "["), key.WithHelp("[/]", th.T("grizzledui.key.log_up"))),
		LogDown:  key.NewBinding(key.WithKeys("pgdown", "]"), key.WithHelp("]", th.T("grizzledui.key.log_down"))),
	}
}}

// ShortHelp is the help bar, most useful first; bubbles/help drops the
// disabled bindings. Next is left out (Prev's help says "←/→") and so is
// Pick (the numbers are on the cards), so that the busiest bar, a free
// turn, still fits 80 columns with the root's "t talk • ? help".
func (k keyMap) ShortHelp() []key.Binding { return k.AppendShortHelp(nil) }

// AppendShortHelp adds ShortHelp's bindings to dst (uikit.ShortHelpAppender).
func (k *keyMap) AppendShortHelp(dst []key.Binding) []key.Binding {
	return append(dst, k.Prev, k.Play, k.Confirm, k.Pass, k.Restore, k.Decline,
		k.Charm, k.Speech, k.Withdraw, k.Back, k.Leave)
}

// FullHelp groups the bindings for a full help view.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Prev, k.Next, k.Pick},
		{k.Play, k.Charm, k.Speech, k.Withdraw},
		{k.Confirm, k.Pass, k.Restore, k.Decline, k.Back},
		{k.LogUp, k.LogDown, k.Leave},
	}
}

// all lists every binding, for switching them off together.
func (k *keyMap) all() []*key.Binding {
	return []*key.Binding{&k.Prev, &k.Next, &k.Pick, &k.Play, &k.Charm, &k.Speech, &k.Withdraw,
		&k.Confirm, &k.Pass, &k.Restore, &k.Decline, &k.Back, &k.Leave}
}
