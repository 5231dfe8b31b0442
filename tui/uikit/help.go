package uikit

import (
	"hash/maphash"
	"sync"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
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
	full  bool
	width int
	keys  uint64 // hash of what the keys show (see keysHash)
}

type helpMemo struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[helpMemoKey]string
}

// ShortHelp is the one-line help bar of keys, w cells wide, in this
// theme's styles (disabled keys are left out).
func (t *Theme) ShortHelp(w int, keys []key.Binding) string {
	return t.memoHelp(helpMemoKey{width: w, keys: t.keysHash(keys)}, func(h help.Model) string {
		return h.ShortHelpView(keys)
	})
}

// FullHelp is the help page's columns of keys, w cells wide: one column
// per group.
func (t *Theme) FullHelp(w int, groups [][]key.Binding) string {
	return t.memoHelp(helpMemoKey{full: true, width: w, keys: t.keysHash(groups...)}, func(h help.Model) string {
		h.ShowAll = true
		return h.FullHelpView(groups)
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

// keysHash identifies what a help view of these groups of keys shows:
// each key's help text and whether it is enabled, in order.
func (t *Theme) keysHash(groups ...[]key.Binding) uint64 {
	var h maphash.Hash
	h.SetSeed(t.helpMemo.seed)
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
