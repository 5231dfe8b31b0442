package screentest

import (
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/bivouac-ssh/bivouac/i18n"

	"github.com/BurntSushi/toml"
	"github.com/charmbracelet/x/ansi"
)

// Words is what a language's catalogs write: every word of every message
// (templates left out), and every word a message itself ends with an
// ellipsis ("Budzi się czarownica…"). A word on a screen that is neither,
// nor part of a name, was cut: by an ellipsis, by the screen's edge or by
// a wrap.
type Words struct {
	whole    map[string]bool
	trailing map[string]bool // words the catalogs write with "…" after them
}

var (
	wordsOnce sync.Once
	wordsOf   map[i18n.Lang]*Words
)

// keyNames are the words of the help bar's key names, which no catalog
// writes (the keys are the keyboard's, in every language; "abc" is the
// rules page's key for typing a search).
var keyNames = []string{"enter", "esc", "tab", "ctrl", "shift", "space", "pgup", "pgdn", "pgdown", "home", "end", "del", "backspace", "alt", "bivouac", "ssh", "abc"}

// CatalogWords is the words of language l's catalogs, with English's:
// titles and terms a catalog leaves in English are English words.
func CatalogWords(t reporter, l i18n.Lang) *Words {
	t.Helper()
	wordsOnce.Do(func() {
		wordsOf = map[i18n.Lang]*Words{}
		for _, l := range i18n.Langs {
			w := &Words{whole: map[string]bool{}, trailing: map[string]bool{}}
			for _, k := range keyNames {
				w.whole[k] = true
			}
			wordsOf[l] = w
		}
		for _, c := range i18n.Catalogs() {
			for _, l := range i18n.Langs {
				b, err := fs.ReadFile(c.Files, string(l)+".toml")
				if err != nil {
					continue
				}
				var top map[string]any
				if err := toml.Unmarshal(b, &top); err != nil {
					continue
				}
				walkStrings(top, func(s string) {
					wordsOf[l].add(s)
					if l != i18n.English {
						wordsOf[i18n.English].add(s) // names of things a language keeps
					}
				})
			}
		}
		for _, l := range i18n.Langs {
			if l != i18n.English {
				for k := range wordsOf[i18n.English].whole {
					wordsOf[l].whole[k] = true
				}
				for k := range wordsOf[i18n.English].trailing {
					wordsOf[l].trailing[k] = true
				}
			}
		}
	})
	return wordsOf[l]
}

// template is a message's placeholder, "{{.Player}}".
var template = regexp.MustCompile(`\{\{[^}]*\}\}`)

// walkStrings calls f with every string in a decoded TOML table.
func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case map[string]any:
		for _, x := range v {
			walkStrings(x, f)
		}
	case []any:
		for _, x := range v {
			walkStrings(x, f)
		}
	}
}

// add takes the words of one message, its templates left out.
func (w *Words) add(s string) {
	for _, tok := range tokens(template.ReplaceAllString(s, " ")) {
		w.whole[tok.word] = true
		if tok.ellipsis {
			w.trailing[tok.word] = true
		}
	}
}

// token is a run of letters on a line, lowercased, and whether "…"
// follows it.
type token struct {
	word     string
	ellipsis bool
	capital  bool // it begins with a capital letter (a proper name, if no catalog writes it)
	border   bool // a border ("│") follows it
	last     bool // it ends the line
	cells    int  // the cells up to its end
}

// tokens are the runs of letters in s (a digit or any other sign ends
// one), each with whether an ellipsis follows.
func tokens(s string) []token {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.Is(unicode.Mn, rs[j])) {
			j++
		}
		if j < len(rs) && unicode.IsDigit(rs[j]) || i > 0 && unicode.IsDigit(rs[i-1]) {
			i = j // part of a code or a count ("K7QX", "3x"): not a word
			continue
		}
		out = append(out, token{word: strings.ToLower(string(rs[i:j])), ellipsis: j < len(rs) && rs[j] == '…',
			capital: unicode.IsUpper(rs[i]), border: j < len(rs) && strings.ContainsRune("│┃║╎┆", rs[j]), last: j == len(rs), cells: ansi.StringWidth(string(rs[:j]))})
		i = j
	}
	return out
}

// CutWords are the words of lines (a screen width cells wide, as drawn)
// that are cut: a word an ellipsis ends that no catalog writes so and is
// no part of a name; or a word (of 3 letters or more) no catalog writes,
// no part of a name nor the beginning of one (a name cut at its column's
// end may lose its ellipsis to a border), that is in lower case (a word
// a wrap or the edge cut in two) or ends at a border or the screen's
// edge (a capitalised word elsewhere is a proper name the game writes:
// a character's). names are the names the screen may show: players',
// tables', campaigns', codes.
func (w *Words) CutWords(lines []string, width int, names []string) []string {
	var nameWords []string
	for _, n := range names {
		for _, tok := range tokens(n) {
			nameWords = append(nameWords, tok.word)
		}
		nameWords = append(nameWords, strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })...)
	}
	ofName := func(word string) bool {
		for _, n := range nameWords {
			if strings.HasPrefix(n, word) {
				return true
			}
		}
		return false
	}
	var cut []string
	for _, line := range lines {
		plain := ansi.Strip(line)
		for _, tok := range tokens(plain) {
			switch {
			case tok.ellipsis && !w.trailing[tok.word] && !ofName(tok.word):
				cut = append(cut, tok.word+"… in "+strings.TrimSpace(plain))
			case !tok.ellipsis && len([]rune(tok.word)) >= 3 && !w.whole[tok.word] && !ofName(tok.word) &&
				(!tok.capital || tok.border || tok.last && tok.cells >= width):
				cut = append(cut, tok.word+" in "+strings.TrimSpace(plain))
			}
		}
	}
	return cut
}

// CutBars are the help bars of a screen (lines of keys, "k what • k
// what") that dropped keys for want of room (they end in an ellipsis)
// and lost the help key with them: a player learns of the keys dropped
// only from ? (uikit's ShortHelp keeps it).
func CutBars(lines []string) []string {
	var cut []string
	for _, line := range lines {
		plain := strings.TrimSpace(ansi.Strip(line))
		if strings.Contains(plain, " • ") && strings.HasSuffix(plain, " …") && !strings.HasPrefix(plain, "? ") && !strings.Contains(plain, " ? ") {
			cut = append(cut, plain)
		}
	}
	return cut
}
