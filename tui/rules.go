package tui

import (
	"strings"
	"unicode"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// rulesView is the rules reference over a table (R): a search line, the
// pages it finds, and the chosen page's full text. Typing searches; the
// arrows choose a page; esc goes back to the table, which plays on
// underneath.
type rulesView struct {
	game   string // the game's title
	pages  []uikit.RulePage
	query  []rune
	at     int // the chosen page among those found
	scroll int // lines of the page's text scrolled past
	bind   rulesKeys
}

type rulesKeys struct{ Up, Down, PgUp, PgDown, Type, Close key.Binding }

// maxRulesQuery is the longest search kept.
const maxRulesQuery = 30

func newRulesView(th *uikit.Theme, title string, r uikit.Rules) *rulesView {
	return &rulesView{game: title, pages: r.RulePages(), bind: rulesKeys{
		Up:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", th.T("ui.key.rules_page"))),
		Down:   key.NewBinding(key.WithKeys("down", "tab")),
		PgUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", th.T("ui.key.rules_scroll"))),
		PgDown: key.NewBinding(key.WithKeys("pgdown", " ")),
		Type:   key.NewBinding(key.WithKeys("a"), key.WithHelp("abc", th.T("ui.key.rules_type"))),
		Close:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", th.T("ui.key.close"))),
	}}
}

func (r *rulesView) found() []uikit.RulePage { return uikit.FindRules(r.pages, string(r.query)) }

// key reports whether the view closes.
func (r *rulesView) key(k tea.KeyMsg) (closed bool) {
	n := len(r.found())
	switch {
	case key.Matches(k, r.bind.Close):
		return true
	case key.Matches(k, r.bind.Up):
		r.at, r.scroll = max(0, r.at-1), 0
	case key.Matches(k, r.bind.Down):
		r.at, r.scroll = min(max(0, n-1), r.at+1), 0
	case key.Matches(k, r.bind.PgUp):
		r.scroll = max(0, r.scroll-5)
	case key.Matches(k, r.bind.PgDown):
		r.scroll += 5 // view keeps it within the page
	case k.Type == tea.KeyBackspace:
		if len(r.query) > 0 {
			r.query = r.query[:len(r.query)-1]
			r.at, r.scroll = 0, 0
		}
	case k.Type == tea.KeyRunes:
		for _, c := range k.Runes {
			if unicode.IsPrint(c) && len(r.query) < maxRulesQuery {
				r.query = append(r.query, c)
			}
		}
		r.at, r.scroll = 0, 0
	}
	return false
}

// The column of page titles is as wide as its longest title, from
// minList to maxList cells: a title wider than maxList is cut.
const minList, maxList = 26, 30

// listWidth is the width of the column of page titles (with the two
// cells of the marker ▸).
func (r *rulesView) listWidth() int {
	n := 0
	for _, p := range r.pages {
		n = max(n, lipgloss.Width(p.Title))
	}
	return min(max(n+2, minList), maxList)
}

func (r *rulesView) view(th *uikit.Theme, w, h int) string {
	found := r.found()
	listWidth := r.listWidth()
	r.at = min(r.at, max(0, len(found)-1))
	head := th.Title.Render(th.T("ui.rules.title")+" · "+r.game) + "  " +
		th.Muted.Render(th.T("ui.rules.search")+": ") + th.Strong.Render(string(r.query)+"_")
	if len(found) > 0 {
		head += th.Muted.Render("  " + th.T("ui.rules.pages", game.Num("N", r.at+1), game.Num("Of", len(found))))
	}
	rows := h - 3 // the head, a blank line, the help bar
	var left, right []string
	if len(found) == 0 {
		right = uikit.Wrap(th.T("ui.rules.none", game.Text("What", string(r.query))), w-listWidth-2)
	} else {
		// the list scrolls to keep the chosen page in sight
		first := max(0, r.at-rows+1)
		for i := first; i < len(found) && len(left) < rows; i++ {
			title := th.Trunc(found[i].Title, listWidth-2)
			if i == r.at {
				left = append(left, th.Selected.Render("▸ "+title))
			} else {
				left = append(left, "  "+title)
			}
		}
		page := found[r.at]
		body := strings.Split(uikit.Paragraphs(page.Body, w-listWidth-2), "\n")
		r.scroll = min(r.scroll, max(0, len(body)-(rows-2)))
		right = append([]string{th.Header.Render(th.Trunc(page.Title, w-listWidth-2)), ""}, body[r.scroll:]...)
	}
	var b strings.Builder
	b.WriteString(th.Trunc(head, w) + "\n\n")
	for i := range rows {
		l, rt := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rt = right[i]
		}
		b.WriteString(l + strings.Repeat(" ", max(0, listWidth-lipgloss.Width(l))) + "  " + rt + "\n")
	}
	keys := []key.Binding{r.bind.Up, r.bind.Type, r.bind.PgUp, r.bind.Close}
	b.WriteString(th.ShortHelp(w, keys))
	return b.String()
}

// rulesFor opens the rules reference of a table's game (nil: it has none).
func rulesFor(m *root, t *tablePage) *rulesView {
	r := t.gameRules(m)
	if r == nil {
		return nil
	}
	return newRulesView(m.th, m.app.Games.Title(m.th, t.upd.Game), r)
}

// gameRules is the table's game's rules reference, or nil: the game's
// screen answers it, a fresh one before the game starts (looked up once).
func (t *tablePage) gameRules(m *root) uikit.Rules {
	if t.can.Rules != nil {
		return t.can.Rules
	}
	if !t.rulesLooked && t.upd.Game != "" {
		t.rulesLooked = true
		if g, ok := m.app.Games.Lookup(t.upd.Game); ok && g.Screen != nil {
			t.rules = uikit.AbilitiesOf(g.Screen(m.th)).Rules
		}
	}
	return t.rules
}
