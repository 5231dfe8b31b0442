package tui

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// formPage is the create-a-table page: first the game, then its fields.
type formPage struct {
	game   int           // index in App.Games
	fields []uikit.Field // the chosen game's, standard ones filled in
	field  int           // focused row: 0 is the game, then the game's fields
	choice []int         // per field of the chosen game
	bind   formKeys
}

type formKeys struct{ Up, Down, Left, Right, Create, Back key.Binding }

func (k formKeys) short() []key.Binding {
	return []key.Binding{k.Up, k.Left, k.Create, k.Back}
}

func newFormKeys(th *uikit.Theme) formKeys { return formKeysByLang.Get(th) }

var formKeysByLang = uikit.PerLang[formKeys]{Make: func(th *uikit.Theme) formKeys {
	return formKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k", "shift+tab"), key.WithHelp("↑/↓", th.T("ui.key.field"))),
		Down:   key.NewBinding(key.WithKeys("down", "j", "tab"), key.WithHelp("↓", th.T("ui.key.next_field"))),
		Left:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", th.T("ui.key.change"))),
		Right:  key.NewBinding(key.WithKeys("right", "l", " "), key.WithHelp("→", th.T("ui.key.change"))),
		Create: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", th.T("ui.key.create_table"))),
		Back:   key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", th.T("ui.key.back"))),
	}
}}

func openForm(m *root) {
	if len(m.app.Games) == 0 {
		m.notice = m.th.T("ui.form.no_games")
		return
	}
	f := &formPage{bind: newFormKeys(m.th)}
	f.setGame(m.app, 0)
	m.show(f)
	m.notice = ""
}

func (f *formPage) setGame(a *App, i int) {
	f.game = i
	f.fields, f.choice = a.Games[i].FormFields(), a.Games[i].FormDefaults()
}

func (f *formPage) key(m *root, k tea.KeyMsg) tea.Cmd {
	g := m.app.Games[f.game]
	rows := 1 + len(f.fields)
	step := 0
	switch {
	case key.Matches(k, f.bind.Back):
		m.show(m.lobby)
		return nil
	case key.Matches(k, f.bind.Up):
		f.field = (f.field + rows - 1) % rows
	case key.Matches(k, f.bind.Down):
		f.field = (f.field + 1) % rows
	case key.Matches(k, f.bind.Left):
		step = -1
	case key.Matches(k, f.bind.Right):
		step = 1
	case key.Matches(k, f.bind.Create):
		spec, err := g.BuildTable(f.choice)
		if err != nil {
			m.notice = m.th.Err(err)
			return nil
		}
		return m.createAndJoin(g, spec)
	}
	if step != 0 {
		if f.field == 0 {
			f.setGame(m.app, (f.game+step+len(m.app.Games))%len(m.app.Games))
		} else {
			fl := f.fields[f.field-1]
			f.choice[f.field-1] = (f.choice[f.field-1] + step + len(fl.Choices)) % len(fl.Choices)
		}
	}
	return nil
}

func (f *formPage) bar(m *root) string           { return m.shortHelp(f.bind.short()) }
func (f *formPage) keys(m *root) [][]key.Binding { return [][]key.Binding{f.bind.short()} }

func (f *formPage) view(m *root) string {
	th := m.th
	g := m.app.Games[f.game]
	var b strings.Builder
	b.WriteString(th.Title.Render(th.T("ui.form.title")) + "\n")
	b.WriteString(m.rule() + "\n\n")
	row := func(i int, label, value string) {
		mark, v := "  ", value
		if f.field == i {
			mark = "▸ "
			v = th.Accent.Render("◂ " + value + " ▸")
		}
		b.WriteString(mark + pad(th, label, 18) + " " + v + "\n")
	}
	row(0, th.T("ui.form.game"), g.Title(th))
	for i, fl := range f.fields {
		row(i+1, th.T(fl.Label), th.Msg(fl.Choices[f.choice[i]]))
	}
	b.WriteString("\n")
	if f.field > 0 {
		if note := f.fields[f.field-1].Note; note != "" {
			b.WriteString(th.Muted.Style().Width(m.width).Render(th.T(note)) + "\n")
		}
	}
	if spec, err := g.BuildTable(f.choice); err == nil {
		b.WriteString(th.Muted.Render(th.Msg(spec.Title)+" · "+th.T("ui.n_seats", game.Count(spec.Seats))) + "\n")
		for _, l := range uikit.Wrap(th.Msg(spec.Summary), m.width) {
			b.WriteString(th.Muted.Render(l) + "\n")
		}
	} else {
		b.WriteString(th.Warning.Render(th.Err(err)) + "\n")
	}
	if m.notice != "" {
		b.WriteString("\n" + m.noticeBlock(m.notice) + "\n")
	}
	return b.String()
}

// createAndJoin opens a table with this session as host and sits down at
// it, off Update: creating saves the table, and joining waits for its actor.
func (m *root) createAndJoin(g uikit.Module, spec uikit.TableSpec) tea.Cmd {
	app, host := m.app, m.sess.Player
	return m.sitDown(func() (table.RoomHandle, error) { return app.Create(g, spec, host) }, false)
}
