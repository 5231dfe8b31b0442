package uikit

import (
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
)

// Help bars and help pages are drawn once per theme, width and set of keys,
// then reused: the same few bars are on thousands of screens, and drawing
// one through bubbles and lipgloss allocates kilobytes. That garbage was
// most of what a keypress cost the server, and under load what a keypress
// allocates is what the garbage collector makes it pay back in assists
// (docs/PERFORMANCE.md).

// helpMemoMax bounds the memo; it is cleared when full. A theme sees a few
// dozen key sets; window widths vary more.
const helpMemoMax = 1024

type helpMemoKey struct {
	kind          helpKind
	width, height int
	keys          uint64 // hash of what the keys show (see keysHash)
}

type helpKind uint8

const (
	shortHelp helpKind = iota
	helpPage
)

type helpMemo struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[helpMemoKey]string
}

// ShortHelp is the one-line help bar of keys, at most w cells wide, in
// this theme's styles (disabled keys are left out). Keys that do not fit
// give way to an ellipsis; the full list is on the help page.
func (t *Theme) ShortHelp(w int, keys []key.Binding) string {
	return t.memoHelp(helpMemoKey{kind: shortHelp, width: w, keys: t.keysHash("", keys)}, func(h help.Model) string {
		return shortHelpView(h, w, keys)
	})
}

// shortHelpView is bubbles' ShortHelpView without its overflow: when even
// the ellipsis has no room, bubbles adds the next key anyway and the bar
// wraps onto a second line (an 88-cell bar at 80 columns). Here the last
// key that fits makes way for the ellipsis instead. A bar that drops keys
// keeps the help key (?), which lists them all: the keys before it make
// way for it, and the ellipsis follows it.
func shortHelpView(h help.Model, w int, keys []key.Binding) string {
	sep := h.Styles.ShortSeparator.Inline(true).Render(h.ShortSeparator)
	tail := " " + h.Styles.Ellipsis.Inline(true).Render(h.Ellipsis)
	var items []string // each key's "k desc", without separators
	helpAt := -1
	for _, kb := range keys {
		if !kb.Enabled() {
			continue
		}
		if helpAt < 0 && slices.Contains(kb.Keys(), "?") {
			helpAt = len(items)
		}
		items = append(items, h.Styles.ShortKey.Inline(true).Render(kb.Help().Key)+" "+
			h.Styles.ShortDesc.Inline(true).Render(kb.Help().Desc))
	}
	total, fit := 0, 0 // the cells of the first fit items, with their separators
	for i, it := range items {
		iw := lipgloss.Width(it)
		if i > 0 {
			iw += lipgloss.Width(sep)
		}
		if w > 0 && total+iw > w {
			break
		}
		total += iw
		fit++
	}
	if fit == len(items) {
		return strings.Join(items, sep)
	}
	kept := items[:fit:fit]
	var last []string // what follows the kept keys: the help key, the ellipsis
	if helpAt >= fit {
		last = append(last, items[helpAt])
	}
	width := func(parts []string) int { return lipgloss.Width(strings.Join(parts, sep)) + lipgloss.Width(tail) }
	for len(kept) > 0 && width(append(kept[:len(kept):len(kept)], last...)) > w {
		kept = kept[:len(kept)-1]
	}
	out := append(kept, last...)
	if width(out) > w {
		return strings.Join(kept, sep) // no room even for the ellipsis
	}
	return strings.Join(out, sep) + tail
}

// HelpPage is a whole help screen, exactly w×h: a title, the keys in
// columns (one per group), about (a paragraph; line breaks are kept), and
// how to close it.
func (t *Theme) HelpPage(w, h int, groups [][]key.Binding, about string) string {
	return t.memoHelp(helpMemoKey{kind: helpPage, width: w, height: h, keys: t.keysHash(about, groups...)}, func(hm help.Model) string {
		hm.ShowAll = true
		var b strings.Builder
		b.WriteString(t.Title.Render(t.T("ui.help.title")) + "\n\n")
		b.WriteString(hm.FullHelpView(groups) + "\n\n")
		for _, l := range strings.Split(about, "\n") {
			b.WriteString(t.Muted.Render(l) + "\n")
		}
		b.WriteString("\n" + t.Muted.Render(t.T("ui.help.close")))
		return FitHeight(b.String(), h)
	})
}

func (t *Theme) memoHelp(k helpMemoKey, draw func(help.Model) string) string {
	t.helpMemo.mu.Lock()
	s, ok := t.helpMemo.m[k]
	t.helpMemo.mu.Unlock()
	if ok {
		return s
	}
	s = draw(t.NewHelp(k.width))
	t.helpMemo.mu.Lock()
	if t.helpMemo.m == nil || len(t.helpMemo.m) >= helpMemoMax {
		t.helpMemo.m = make(map[helpMemoKey]string)
	}
	t.helpMemo.m[k] = s
	t.helpMemo.mu.Unlock()
	return s
}

// keysHash identifies what a help view of these groups of keys (and this
// text) shows: each key's help text and whether it is enabled, in order.
func (t *Theme) keysHash(text string, groups ...[]key.Binding) uint64 {
	var h maphash.Hash
	h.SetSeed(t.helpMemo.seed)
	h.WriteString(text)
	for _, g := range groups {
		for _, b := range g {
			hb := b.Help()
			h.WriteString(hb.Key)
			h.WriteByte(0)
			h.WriteString(hb.Desc)
			if b.Enabled() {
				h.WriteByte(1)
			} else {
				h.WriteByte(2)
			}
		}
		h.WriteByte(3) // end of a group: [[a b] [c]] is not [[a] [b c]]
	}
	return h.Sum64()
}
